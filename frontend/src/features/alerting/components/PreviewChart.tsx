import type { UseQueryResult } from "@tanstack/react-query";
import { useMemo, type ReactElement } from "react";
import { EChart } from "@/components/charts/EChart";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { QueryError } from "@/components/query-editor/QueryError";
import { formatDateTime } from "@/lib/time";
import type { Preview } from "../api";
import { previewAlertRows, previewOption, previewSummary } from "../previewOption";
import { queryError } from "../queryErrors";
import { SeverityBadge } from "./Badges";

export interface PreviewChartProps {
  preview: UseQueryResult<Preview>;
  /** The query the preview ran (for the error's line and column). */
  query: string;
  /** Undefined: the form cannot be previewed yet, `hint` says why. */
  requested: boolean;
  hint?: string;
  change?: "percent" | "absolute";
  /** How far back the preview runs, and a way to change it. */
  hours: number;
  onHours: (hours: number) => void;
}

/** The spans the preview offers (the API takes 1 hour to 7 days). */
export const PREVIEW_HOURS: readonly { hours: number; label: string }[] = [
  { hours: 1, label: "1 hour" },
  { hours: 6, label: "6 hours" },
  { hours: 24, label: "24 hours" },
  { hours: 72, label: "3 days" },
  { hours: 168, label: "7 days" },
];

/** "the last 24 hours", "the last hour". */
export function lastHours(hours: number): string {
  if (hours === 1) return "the last hour";
  if (hours % 24 === 0 && hours > 24) return `the last ${hours / 24} days`;
  return `the last ${hours} hours`;
}

/**
 * The monitor run over the last 24 hours, as the evaluator would have run it: each group's
 * value, the conditions as coloured bands, and where it would have fired (shaded, with the
 * list under the chart). Asked again as the monitor changes (the editor debounces it).
 */
export function PreviewChart({ preview, query, requested, hint, change, hours, onHours }: PreviewChartProps): ReactElement {
  const data = preview.data;
  const option = useMemo(() => (data ? previewOption(data, { change }) : undefined), [data, change]);
  const rows = useMemo(() => (data ? previewAlertRows(data) : []), [data]);
  let body: ReactElement;
  if (!requested) {
    body = <EmptyState title="Nothing to preview yet">{hint ?? "Write a query and a condition to see when it would fire."}</EmptyState>;
  } else if (preview.isError) {
    body = <QueryError error={queryError(preview.error) ?? preview.error} query={query} onRetry={() => void preview.refetch()} />;
  } else if (!data) {
    body = (
      <div className="chart-placeholder">
        <Spinner label="Running the preview" />
      </div>
    );
  } else if (data.series.length === 0) {
    body = (
      <EmptyState title={`The query returned nothing in ${lastHours(hours)}`} testId="preview-empty">
        {data.note ?? "Check the measurement and field names, or make sure data is arriving."}
      </EmptyState>
    );
  } else {
    body = (
      <>
        <div className="preview-notes">
          <p className="small" data-testid="preview-summary">
            {previewSummary(data)}
            {data.truncated ? " Only the busiest groups are drawn." : ""}
            {change === "percent" ? " Values are changes in percent." : change === "absolute" ? " Values are changes." : ""}
          </p>
          {data.note ? <p className="muted small">{data.note}</p> : null}
        </div>
        {option ? (
          <EChart
            option={option}
            label={`Preview: ${data.series.length} series over ${lastHours(hours)}; ${previewSummary(data)}`}
            testId="preview-chart"
            className="preview-chart"
            style={{ height: 340 }}
          />
        ) : null}
        {rows.length > 0 ? (
          <details>
            <summary>When it would have fired ({rows.length})</summary>
            <ul className="preview-alerts" data-testid="preview-alerts">
              {rows.slice(0, 100).map((r) => (
                <li key={`${r.group}-${r.start}`}>
                  <SeverityBadge severity={r.severity} /> {r.group}: {formatDateTime(r.start, undefined, false)} →{" "}
                  {r.end ? formatDateTime(r.end, undefined, false) : "still firing"}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </>
    );
  }
  return (
    <section className="card stack" aria-labelledby="preview-title" aria-busy={preview.isFetching} data-testid="preview">
      <div className="card-header">
        <h2 id="preview-title">Preview</h2>
        <div className="toolbar">
          {preview.isFetching ? <Spinner label="Updating the preview" /> : null}
          <label className="inline-field">
            Replay the last
            <select value={hours} onChange={(e) => onHours(Number(e.target.value))} data-testid="preview-hours">
              {PREVIEW_HOURS.map((h) => (
                <option key={h.hours} value={h.hours}>
                  {h.label}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {body}
    </section>
  );
}
