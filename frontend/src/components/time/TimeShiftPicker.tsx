import { useId, useState, type FormEvent, type ReactElement } from "react";
import { Button } from "@/components/ui/Button";
import { TIME_SHIFT_PRESETS, timeShiftError, timeShiftLabel } from "@/lib/timeShift";

export interface TimeShiftPickerProps {
  /** The current shift (`1d`), or empty when not comparing. */
  value: string;
  onChange: (shift: string) => void;
  /** The visible label; the dashboard's toolbar says "Compare". */
  label?: string;
  /** The name of the "no comparison" choice. */
  offLabel?: string;
  testId?: string;
}

const CUSTOM = "__custom";

/** "Compare with": off, a preset (1 day ago …) or a custom duration. */
export function TimeShiftPicker({
  value,
  onChange,
  label = "Compare",
  offLabel = "Off",
  testId = "time-shift",
}: TimeShiftPickerProps): ReactElement {
  const id = useId();
  const isPreset = value === "" || TIME_SHIFT_PRESETS.some((p) => p.value === value);
  const [custom, setCustom] = useState(isPreset ? "" : value);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();

  const apply = (e: FormEvent): void => {
    e.preventDefault();
    const problem = timeShiftError(custom);
    setError(problem);
    if (problem) return;
    onChange(custom.trim());
    setEditing(false);
  };

  return (
    <div className="time-shift">
      <label className="inline-field" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        data-testid={testId}
        value={editing ? CUSTOM : value}
        onChange={(e) => {
          if (e.target.value === CUSTOM) {
            setEditing(true);
            return;
          }
          setEditing(false);
          setError(undefined);
          onChange(e.target.value);
        }}
      >
        <option value="">{offLabel}</option>
        {TIME_SHIFT_PRESETS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
        {!isPreset ? <option value={value}>{timeShiftLabel(value)}</option> : null}
        <option value={CUSTOM}>Custom…</option>
      </select>
      {editing ? (
        <form className="row time-shift-custom" onSubmit={apply} aria-label="Custom time shift" noValidate>
          <input
            aria-label="Shift by"
            placeholder="e.g. 2d, 12h"
            size={8}
            value={custom}
            autoFocus
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-err` : undefined}
            onChange={(e) => setCustom(e.target.value)}
          />
          <Button type="submit" size="sm">
            Apply
          </Button>
          {error ? (
            <span id={`${id}-err`} className="field-error" role="alert">
              {error}
            </span>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
