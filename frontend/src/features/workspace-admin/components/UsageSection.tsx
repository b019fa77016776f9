import type { ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Spinner } from "@/components/ui/Spinner";
import { toUserMessage } from "@/lib/apiError";
import { useStringParam } from "@/lib/useUrlState";
import type { Limits, Usage } from "../api";
import { useUsage, useUsageHistory } from "../hooks/useLimits";
import { formatNumber } from "@/lib/format";
import { StorageError } from "./StorageError";
import { UsageCharts } from "./UsageCharts";

const HISTORY_RANGES = [
  { hours: "6", label: "6 hours" },
  { hours: "24", label: "24 hours" },
  { hours: "168", label: "7 days" },
  { hours: "720", label: "30 days" },
];

/**
 * Settings › Limits & usage, for admins: the usage figures against the limits, and the ingest
 * rate, active series and queries over the range in the URL (`hours`).
 */
export function UsageSection({ workspaceId, limits }: { workspaceId: string; limits: Limits | undefined }): ReactElement {
  const [hours, setHours] = useStringParam("hours", "24");
  const hoursNum = HISTORY_RANGES.some((r) => r.hours === hours) ? Number(hours) : 24;
  const usage = useUsage(workspaceId, true);
  const history = useUsageHistory(workspaceId, hoursNum, true);
  return (
    <section className="card stack" aria-labelledby="usage-title" aria-busy={history.isFetching}>
      <div className="section-header">
        <h2 id="usage-title">Usage</h2>
        <label className="inline-field">
          Over the last
          <select value={String(hoursNum)} onChange={(e) => setHours(e.target.value)} data-testid="usage-range">
            {HISTORY_RANGES.map((r) => (
              <option key={r.hours} value={r.hours}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {usage.isPending ? (
        <Spinner label="Loading usage" />
      ) : usage.isError ? (
        <Alert title="Could not load the usage">{toUserMessage(usage.error)}</Alert>
      ) : (
        <UsageFigures usage={usage.data} limits={limits} ingestRate={history.data?.ingest_rate.at(-1)?.value} />
      )}
      {history.isPending ? (
        <Spinner label="Loading usage history" />
      ) : history.isError ? (
        <Alert title="Could not load the usage history">{toUserMessage(history.error)}</Alert>
      ) : (
        <UsageCharts
          history={history.data}
          limits={limits}
          storageErrorShown={Boolean(usage.data?.storage_error)}
          activeSeriesNow={usage.data?.active_series ?? null}
        />
      )}
    </section>
  );
}

function UsageFigures({
  usage,
  limits,
  ingestRate,
}: {
  usage: Usage;
  limits: Limits | undefined;
  /** Points/s of the newest interval of the usage history, when loaded. */
  ingestRate: number | undefined;
}): ReactElement {
  return (
    <>
      {usage.storage_error ? (
        <StorageError detail={usage.storage_error} testId="usage-storage-error">
          Storage could not be reached; usage figures are unavailable.
        </StorageError>
      ) : null}
      <div className="usage-figures">
        <Figure label="Active series" value={usage.active_series} limit={limits?.active_series} testId="usage-active-series" />
        <Figure
          label="Ingest rate now (points/s)"
          value={ingestRate === undefined ? null : Math.round(ingestRate * 100) / 100}
          limit={limits?.ingest_points_per_second}
          testId="usage-ingest-rate"
        />
        <Figure label="Series stored" value={usage.series_total} testId="usage-series-total" />
        <Figure label="Points today (UTC)" value={usage.points_today} testId="usage-points-today" />
        <Figure label="Queries today (UTC)" value={usage.queries_today} testId="usage-queries-today" />
      </div>
      {usage.series_limit_dropped_points ? (
        <Alert title="New series are being refused" testId="usage-series-limit-dropped">
          {formatNumber(usage.series_limit_dropped_points)} points of new series were left out since storage last started,
          because the workspace had reached its limit of {limits ? formatNumber(limits.active_series) : "active"} active
          series. Series that already receive points keep being written. Raise the limit, or stop sending the extra
          series (a tag whose values keep changing, such as a request id, makes a new series for each value).
        </Alert>
      ) : null}
      {usage.ingest_parked_batches ? (
        <Alert title="Some batches were set aside" testId="usage-ingest-parked">
          {formatNumber(usage.ingest_parked_batches)} batches ({formatNumber(usage.ingest_parked_points ?? 0)} points) were
          set aside because storage kept refusing them
          {usage.ingest_parked_last_at ? ` (last on ${new Date(usage.ingest_parked_last_at).toLocaleString()})` : ""}, so
          that they would not hold back newer data. Last reason: {usage.ingest_parked_last_reason ?? "not recorded"}.
        </Alert>
      ) : null}
    </>
  );
}

function Figure({ label, value, limit, testId }: { label: string; value: number | null | undefined; limit?: number; testId: string }): ReactElement {
  const ratio = limit && value != null ? Math.min(value / limit, 1) : undefined;
  return (
    <div className="usage-figure" data-testid={testId}>
      <div className="label">{label}</div>
      <div className="value">{value == null ? "–" : formatNumber(value)}</div>
      {limit !== undefined ? (
        <>
          <div className="muted small">of {formatNumber(limit)} allowed</div>
          {ratio !== undefined ? (
            <div
              className={ratio >= 0.8 ? "meter high" : "meter"}
              role="meter"
              aria-label={`${label}: ${Math.round(ratio * 100)}% of the limit`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(ratio * 100)}
            >
              <span style={{ width: `${ratio * 100}%` }} />
            </div>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
