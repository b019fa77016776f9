import { useId, useRef, useState, type FormEvent, type ReactElement } from "react";
import { Button } from "@/components/ui/Button";
import { ZoomOutIcon } from "@/components/ui/icons";
import { useDismiss } from "@/components/ui/useDismiss";
import {
  describeTimeRange,
  formatDuration,
  fromZoneInput,
  RELATIVE_RANGES,
  resolveTimeRange,
  shiftTimeRange,
  timeZoneLabel,
  toZoneInput,
  zoomOutTimeRange,
  type TimeRangeSpec,
} from "@/lib/time";
import { useShortcuts } from "@/lib/shortcuts";
import { useTimeZone } from "@/lib/timeZone";

export interface TimeRangePickerProps {
  value: TimeRangeSpec;
  onChange: (range: TimeRangeSpec) => void;
}

/**
 * Relative presets (5 minutes … 30 days) and an absolute range, in the page's time zone (a
 * dashboard's, else the browser's); beside
 * it, buttons that move the range half its length earlier or later and zoom out to twice its
 * length (Grafana's habits).
 */
export function TimeRangePicker({ value, onChange }: TimeRangePickerProps): ReactElement {
  // the page's zone: a dashboard's own, else the browser's
  const timeZone = useTimeZone();
  const toLocalInput = (ms: number): string => toZoneInput(ms, timeZone);
  const fromLocalInput = (v: string): number | undefined => fromZoneInput(v, timeZone);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const panelId = useId();
  const buttonId = useId();
  const ref = useRef<HTMLDivElement>(null);
  // Closing from inside the popover puts focus back on the button that opened it (the
  // popover's controls go away with it, which would leave focus on the page's body).
  const close = (): void => {
    setOpen(false);
    const button = document.getElementById(buttonId);
    if (button && ref.current?.contains(document.activeElement)) button.focus();
  };
  const [start, end] = (() => {
    try {
      return resolveTimeRange(value);
    } catch {
      return resolveTimeRange({ from: "now-1h", to: "now" });
    }
  })();
  const [absFrom, setAbsFrom] = useState(toLocalInput(start));
  const [absTo, setAbsTo] = useState(toLocalInput(end));

  useDismiss(open, ref, (by) => {
    setOpen(false);
    if (by === "escape") document.getElementById(buttonId)?.focus();
  });

  const applyAbsolute = (e: FormEvent): void => {
    e.preventDefault();
    const a = fromLocalInput(absFrom);
    const b = fromLocalInput(absTo);
    if (a === undefined || b === undefined) {
      setError("Enter both a start and an end.");
      return;
    }
    if (a >= b) {
      setError("The start must be before the end.");
      return;
    }
    setError(undefined);
    onChange({ from: String(a), to: String(b) });
    close();
  };

  const half = formatDuration((end - start) / 2);
  const endsNow = end >= Date.now() - 1_000;
  // a range that does not resolve (a hand-edited link) has no step; the picker shows why
  const step = (next: () => TimeRangeSpec | undefined): void => {
    let range: TimeRangeSpec | undefined;
    try {
      range = next();
    } catch {
      range = undefined;
    }
    if (range) onChange(range);
  };

  useShortcuts({
    "t left": () => step(() => shiftTimeRange(value, -1)),
    "t right": () => step(() => shiftTimeRange(value, 1)),
    "t z": () => step(() => zoomOutTimeRange(value)),
  });

  return (
    <div className="time-picker" ref={ref}>
      <Button
        variant="ghost"
        size="sm"
        className="time-step"
        aria-label={`Earlier: move the time range back by ${half}`}
        title={`Earlier (back ${half}) · t ←`}
        data-testid="time-range-earlier"
        onClick={() => step(() => shiftTimeRange(value, -1))}
      >
        <span aria-hidden="true">‹</span>
      </Button>
      <Button
        id={buttonId}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-testid="time-range-button"
        onClick={() => {
          setAbsFrom(toLocalInput(start));
          setAbsTo(toLocalInput(end));
          setOpen((o) => !o);
        }}
      >
        {describeTimeRange(value, timeZone)}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="time-step"
        aria-label={`Later: move the time range forward by ${half}`}
        title={endsNow ? "Later (the range already ends now)" : `Later (forward ${half}) · t →`}
        data-testid="time-range-later"
        disabled={endsNow}
        onClick={() => step(() => shiftTimeRange(value, 1))}
      >
        <span aria-hidden="true">›</span>
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="time-step"
        aria-label="Zoom out: twice as long a time range"
        title="Zoom out (twice as long) · t z"
        data-testid="time-range-zoom-out"
        onClick={() => step(() => zoomOutTimeRange(value))}
      >
        <ZoomOutIcon />
      </Button>
      <span className="muted tz-label" data-testid="timezone-label" title="Times are shown in this time zone">
        {timeZoneLabel(timeZone)}
      </span>
      {open ? (
        <div className="popover time-popover" id={panelId} role="dialog" aria-label="Time range">
          <div className="time-presets" role="group" aria-label="Relative ranges">
            {RELATIVE_RANGES.map((r) => (
              <button
                type="button"
                key={r.from}
                className={value.to === "now" && value.from === r.from ? "preset active" : "preset"}
                aria-pressed={value.to === "now" && value.from === r.from}
                onClick={() => {
                  onChange({ from: r.from, to: "now" });
                  close();
                }}
              >
                {r.label}
              </button>
            ))}
          </div>
          <form className="time-absolute stack" onSubmit={applyAbsolute} aria-label="Absolute range">
            <label>
              From
              <input type="datetime-local" value={absFrom} onChange={(e) => setAbsFrom(e.target.value)} />
            </label>
            <label>
              To
              <input type="datetime-local" value={absTo} onChange={(e) => setAbsTo(e.target.value)} />
            </label>
            {error ? (
              <span className="field-error" role="alert">
                {error}
              </span>
            ) : null}
            <Button type="submit" variant="primary" size="sm">
              Apply range
            </Button>
          </form>
        </div>
      ) : null}
    </div>
  );
}
