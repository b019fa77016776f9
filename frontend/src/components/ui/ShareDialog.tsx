import { useId, useState, type ReactElement } from "react";
import { isRelativeRange, shareLink } from "@/lib/shareLink";
import { describeTimeRange, formatDateTime, resolveTimeRange, timeZoneLabel, type TimeRangeSpec } from "@/lib/time";
import { useTimeZone } from "@/lib/timeZone";
import { Button } from "./Button";
import { CopyButton } from "./CopyButton";
import { Dialog } from "./Dialog";

export interface ShareDialogProps {
  /** What is shared, in the title: `“Host overview”`, `this query`. */
  what: string;
  /** The range the page shows. */
  range: TimeRangeSpec;
  /** A dashboard's panel the link can show alone (checked at first). */
  panel?: { id: string; title: string };
  onClose: () => void;
}

/**
 * The link to the page as it is (query, variables, comparison, time range) to copy, with the
 * time range locked to the minutes shown now if wanted, and a dashboard's panel alone.
 */
export function ShareDialog({ what, range, panel, onClose }: ShareDialogProps): ReactElement {
  const id = useId();
  const timeZone = useTimeZone();
  const relative = isRelativeRange(range);
  const [lockTime, setLockTime] = useState(false);
  const [panelOnly, setPanelOnly] = useState(panel !== undefined);
  // the minutes shown when the dialog opened: what a locked link keeps
  const [now] = useState(() => Date.now());
  const bounds = ((): [number, number] | undefined => {
    try {
      return resolveTimeRange(range, now);
    } catch {
      return undefined;
    }
  })();
  const link = shareLink(window.location.href, {
    range,
    lockTime: lockTime && relative && bounds !== undefined,
    viewPanel: panel ? (panelOnly ? panel.id : "") : undefined,
    now,
  });
  const locked = bounds
    ? `${formatDateTime(bounds[0], timeZone)} → ${formatDateTime(bounds[1], timeZone)} ${timeZoneLabel(timeZone)}`
    : describeTimeRange(range, timeZone);

  return (
    <Dialog
      title={`Share ${what}`}
      description="Members of this workspace open the link as you see it now; anyone else is asked to sign in first."
      onClose={onClose}
      testId="share-dialog"
      className="dialog-wide"
      initialFocus="input[readonly]"
    >
      <div className="field">
        <label htmlFor={`${id}-link`}>Link</label>
        <div className="row share-link">
          <input
            id={`${id}-link`}
            className="mono"
            readOnly
            value={link}
            onFocus={(e) => e.currentTarget.select()}
            data-testid="share-link"
          />
          <CopyButton text={link} label="Copy link" />
        </div>
      </div>
      {relative && bounds ? (
        <div className="field">
          <label className="check">
            <input type="checkbox" checked={lockTime} onChange={(e) => setLockTime(e.target.checked)} />
            Lock the time range
          </label>
          <p className="muted small" id={`${id}-time`}>
            {lockTime
              ? `Always ${locked}, as shown now.`
              : `${describeTimeRange(range, timeZone)}, counted from when the link is opened.`}
          </p>
        </div>
      ) : (
        <p className="muted small">The time range is fixed: {locked}.</p>
      )}
      {panel ? (
        <label className="check">
          <input type="checkbox" checked={panelOnly} onChange={(e) => setPanelOnly(e.target.checked)} />
          Only the panel “{panel.title}”
        </label>
      ) : null}
      <div className="confirm-actions">
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      </div>
    </Dialog>
  );
}
