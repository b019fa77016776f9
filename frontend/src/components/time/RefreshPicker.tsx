import { useId, type ReactElement } from "react";
import { Button } from "@/components/ui/Button";
import { refreshChoices } from "@/lib/refresh";

export interface RefreshPickerProps {
  /** The auto refresh in effect (`30s`), or empty when off. */
  value: string;
  onChange: (refresh: string) => void;
  /** Asks every panel again now; without it there is no Refresh button (Explore, the settings' menu). */
  onRefresh?: () => void;
  /** Panels are being asked for their data. */
  refreshing?: boolean;
  /** The visible label of the menu. */
  label?: string;
  offLabel?: string;
  testId?: string;
}

/**
 * How often the page runs its queries again on its own (off, 5s … 1h: `REFRESH_PRESETS`),
 * and optionally a button that does it now. Explore, dashboards and a dashboard's saved
 * default all use this one menu; the value is what the URL's `refresh` holds.
 */
export function RefreshPicker({
  value,
  onChange,
  onRefresh,
  refreshing = false,
  label = "Auto refresh",
  offLabel = "Off",
  testId = "auto-refresh",
}: RefreshPickerProps): ReactElement {
  const id = useId();
  return (
    <div className="refresh-picker">
      {onRefresh ? (
        <Button onClick={onRefresh} aria-busy={refreshing} data-testid="refresh-dashboard" title="Run every panel's query again now">
          <svg className="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <path d="M13.5 8a5.5 5.5 0 1 1-1.6-3.9" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
            <path d="M12.6 1.6v3.2H9.4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          Refresh
        </Button>
      ) : null}
      <label className="inline-field" htmlFor={id}>
        {label}
      </label>
      <select id={id} data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{offLabel}</option>
        {refreshChoices(value).map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}
