import { useMemo, useState, type FormEvent, type ReactElement, type ReactNode } from "react";
import { EChart } from "@/components/charts/EChart";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { canAdmin } from "@/features/workspaces/hooks/useWorkspaces";
import { toUserMessage } from "@/lib/apiError";
import { useStringParam } from "@/lib/useUrlState";
import { useCurrentWorkspace } from "@/routes/useWorkspaceContext";
import type { Limits, Usage, UsageHistory } from "./api";
import { useLimits, useUpdateLimits, useUsage, useUsageHistory } from "./hooks/useLimits";
import {
  ceilingHint,
  diffLimits,
  formatBytes,
  formatNumber,
  LIMIT_FIELDS,
  toDraft,
  type LimitsDraft,
} from "./limitFields";
import { toQueriesChartOption, toUsageChartOption } from "./usageChart";

const HISTORY_RANGES = [
  { hours: "6", label: "6 hours" },
  { hours: "24", label: "24 hours" },
  { hours: "168", label: "7 days" },
  { hours: "720", label: "30 days" },
];

/** Settings › Limits & usage: the workspace's limits (editable by admins) and usage against them. */
export function LimitsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const admin = canAdmin(workspace.role);
  const limits = useLimits(workspace.id);
  // Kept here: the form starts over from the saved limits after a save.
  const [saved, setSaved] = useState(false);
  return (
    <>
      <section className="card stack" aria-labelledby="limits-title">
        <div className="section-header">
          <h2 id="limits-title">Limits</h2>
          <p className="muted small">
            {admin ? "Changes apply within seconds at the gateway and to the next query." : "Only owners and admins can change limits."}
          </p>
        </div>
        {limits.data ? (
          <p className="muted small" data-testid="limits-plan">
            Plan <strong>{limits.data.plan.name}</strong>, set by the platform&apos;s operators: each limit can be set up
            to the plan&apos;s ceiling, never above.
          </p>
        ) : null}
        {limits.isPending ? (
          <Spinner label="Loading limits" />
        ) : limits.isError ? (
          <Alert title="Could not load the limits">{toUserMessage(limits.error)}</Alert>
        ) : (
          // Re-mount the form when the saved limits change so it starts from them.
          <LimitsForm
            key={JSON.stringify(limits.data)}
            workspaceId={workspace.id}
            limits={limits.data}
            editable={admin}
            onSaved={() => setSaved(true)}
            onEdit={() => setSaved(false)}
          />
        )}
        {saved ? (
          <Alert tone="success" testId="limits-saved">
            Limits saved.
          </Alert>
        ) : null}
      </section>
      {admin ? (
        <UsageSection workspaceId={workspace.id} limits={limits.data} />
      ) : (
        <section className="card stack" aria-labelledby="usage-title">
          <h2 id="usage-title">Usage</h2>
          <Alert tone="info">Usage figures are visible to owners and admins.</Alert>
        </section>
      )}
    </>
  );
}

interface LimitsFormProps {
  workspaceId: string;
  limits: Limits;
  editable: boolean;
  onSaved: () => void;
  onEdit: () => void;
}

function LimitsForm({ workspaceId, limits, editable, onSaved, onEdit }: LimitsFormProps): ReactElement {
  const update = useUpdateLimits(workspaceId);
  const [draft, setDraft] = useState<LimitsDraft>(() => toDraft(limits));
  // Checked as the user types: a refused value says why at once, beside its field.
  const { changes, errors } = diffLimits(limits, draft);
  const invalid = LIMIT_FIELDS.filter((f) => errors[f.key] !== undefined);
  const changed = Object.keys(changes).length > 0;
  // Anything typed that is not the saved text, valid or not, can be thrown away.
  const edited = LIMIT_FIELDS.some((f) => draft[f.key] !== String(limits[f.key]));
  const canSave = changed && invalid.length === 0 && !update.isPending;

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    // Enter in a field submits too: never with a refused value (the disabled Save says why).
    if (!canSave) return;
    // The form re-mounts with the saved limits before `mutate`'s callbacks would run: use the promise.
    update.mutateAsync(changes).then(onSaved, () => undefined);
  };

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Limits">
      <div className="limits-grid">
        {LIMIT_FIELDS.map((f) => {
          const id = `limit-${f.key}`;
          const msg = errors[f.key];
          return (
            <div className="field" key={f.key}>
              <label htmlFor={id}>{f.label}</label>
              <div className="limit-input">
                <input
                  id={id}
                  name={f.key}
                  inputMode="numeric"
                  value={draft[f.key]}
                  readOnly={!editable}
                  aria-invalid={msg ? true : undefined}
                  aria-describedby={`${id}-msg`}
                  onChange={(e) => {
                    onEdit();
                    setDraft({ ...draft, [f.key]: e.target.value });
                  }}
                />
                <span className="unit">{f.unit}</span>
              </div>
              <span id={`${id}-msg`} className={msg ? "field-error" : "field-hint"} data-testid={`${id}-msg`}>
                {msg ??
                  `${f.key === "max_body_bytes" ? `${formatBytes(limits[f.key])}. ` : ""}${f.help} ${ceilingHint(limits, f)}`}
              </span>
            </div>
          );
        })}
      </div>
      {update.isError ? <Alert>{toUserMessage(update.error)}</Alert> : null}
      {editable ? (
        <div className="row">
          <Button
            type="submit"
            variant="primary"
            disabled={!canSave}
            aria-describedby={invalid.length > 0 ? "limits-save-blocked" : undefined}
          >
            Save limits
          </Button>
          <Button variant="ghost" disabled={!edited || update.isPending} onClick={() => setDraft(toDraft(limits))}>
            Discard changes
          </Button>
          {invalid.length > 0 ? (
            <span id="limits-save-blocked" className="field-error" data-testid="limits-save-blocked">
              {invalid.length === 1
                ? `Correct ${invalid[0].label} to save.`
                : `Correct ${invalid.length} fields to save: ${invalid.map((f) => f.label).join(", ")}.`}
            </span>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

/** Storage did not answer: an error in words, with what the backend was told kept below it for whoever debugs. */
function StorageError({ detail, testId, children }: { detail: string; testId: string; children: ReactNode }): ReactElement {
  return (
    <Alert testId={testId}>
      <p>{children}</p>
      <details className="muted small">
        <summary>Technical detail</summary>
        <code>{detail}</code>
      </details>
    </Alert>
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

function UsageSection({ workspaceId, limits }: { workspaceId: string; limits: Limits | undefined }): ReactElement {
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

function UsageCharts({
  history,
  limits,
  storageErrorShown,
  activeSeriesNow,
}: {
  history: UsageHistory;
  limits: Limits | undefined;
  /** The figures above already say storage is down: say it once. */
  storageErrorShown: boolean;
  /** The figure above: series are active now even before their count's first record. */
  activeSeriesNow: number | null;
}): ReactElement {
  const range: [number, number] = [history.start, history.end];
  const rate = useMemo(
    () =>
      toUsageChartOption(history.ingest_rate, {
        name: "Ingest rate",
        unit: "points/s",
        range,
        limit: limits?.ingest_points_per_second,
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `range` is derived from `history`
    [history, limits?.ingest_points_per_second],
  );
  const series = useMemo(
    () =>
      toUsageChartOption(history.active_series, {
        name: "Active series",
        unit: "series",
        range,
        limit: limits?.active_series,
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `range` is derived from `history`
    [history, limits?.active_series],
  );
  const queries = useMemo(() => toQueriesChartOption(history.queries_per_day), [history]);
  const step = history.step_seconds >= 3600 ? `${history.step_seconds / 3600} h` : `${history.step_seconds / 60} min`;
  return (
    <>
      {history.storage_error && !storageErrorShown ? (
        <StorageError detail={history.storage_error} testId="usage-history-storage-error">
          Storage could not be reached; the ingest rate and active series history are unavailable.
        </StorageError>
      ) : null}
      <p className="muted small">
        The dashed line is the workspace&apos;s limit; click it in a legend to fit that chart to the usage alone.
      </p>
      <div className="usage-charts">
        <div>
          <h3>Ingest rate (average per {step})</h3>
          {history.ingest_rate.length === 0 ? (
            <EmptyState title="No points received in this period">
              Create an ingest key and point an agent at the gateway; its points show up here.
            </EmptyState>
          ) : (
            <EChart option={rate} label="Ingest rate over time, with the ingest rate limit" testId="usage-ingest-chart" style={{ height: 260 }} />
          )}
        </div>
        <div>
          <h3>Active series</h3>
          {history.active_series.length === 0 && !history.storage_error ? (
            activeSeriesNow ? (
              <EmptyState title="No record of active series yet" testId="usage-series-pending">
                Storage records each workspace&apos;s count of active series at an interval (once a minute by default);
                the chart starts with the first record.
              </EmptyState>
            ) : (
              <EmptyState title="No active series in this period" />
            )
          ) : (
            <EChart option={series} label="Active series over time, with the active series limit" testId="usage-series-chart" style={{ height: 260 }} />
          )}
        </div>
        <div>
          <h3>Queries per day (UTC)</h3>
          <EChart option={queries} label="Queries per day" testId="usage-queries-chart" style={{ height: 220 }} />
        </div>
      </div>
    </>
  );
}
