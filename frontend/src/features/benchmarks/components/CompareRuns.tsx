import { useMemo, type ReactElement } from "react";
import { EChart } from "@/components/charts/EChart";
import { Alert } from "@/components/ui/Alert";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { Spinner } from "@/components/ui/Spinner";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import type { BenchmarkRunPublic, BenchmarkScenarioResult } from "../api";
import { alignYAxes, figureCharts, metricTitle, type ChartSpec } from "../charts";
import { useBenchmarkRun, useBenchmarkRuns } from "../hooks/useBenchmarks";
import { compareScenarios, verdict, type CompareRow } from "../report";
import { formatChange, formatValue } from "../units";

export interface CompareRunsProps {
  workspaceId: string;
  run: BenchmarkRunPublic;
  scenario: BenchmarkScenarioResult;
  metric: string;
  otherId: string;
  onPick: (id: string) => void;
  /** Name of the sweep position (`clients`, `batch rows`), when the scenario is a sweep. */
  sweepName?: string;
}

const when = (iso: string): string => formatDateTime(Date.parse(iso), undefined, false);

/** Environment fields that differ between the runs: a comparison across machines says so. */
function environmentChanges(a: BenchmarkRunPublic, b: BenchmarkRunPublic): string[] {
  const ea = a.document.environment;
  const eb = b.document.environment;
  const out: string[] = [];
  const fields: [string, unknown, unknown][] = [
    ["CPU", ea.cpu_model, eb.cpu_model],
    ["CPUs", ea.cpu_count, eb.cpu_count],
    ["memory", ea.memory_bytes, eb.memory_bytes],
    ["kernel", ea.kernel, eb.kernel],
    ["glibc", ea.glibc, eb.glibc],
    ["host", ea.hostname, eb.hostname],
  ];
  for (const [name, x, y] of fields) if (x !== y) out.push(`${name}: ${String(x)} → ${String(y)}`);
  const systems = new Set([...Object.keys(ea.system_versions ?? {}), ...Object.keys(eb.system_versions ?? {})]);
  for (const s of systems) {
    const x = ea.system_versions?.[s] ?? "—";
    const y = eb.system_versions?.[s] ?? "—";
    if (x !== y) out.push(`${s}: ${x} → ${y}`);
  }
  return out;
}

/** The comparison's columns; labels and the sweep position only when some row has them. */
function compareColumns(rows: readonly CompareRow[], sweepName: string | undefined): DataTableColumn<CompareRow>[] {
  const columns: DataTableColumn<CompareRow>[] = [{ id: "metric", header: "Metric", rowHeader: true, cell: (r) => metricTitle(r.metric) }];
  if (rows.some((r) => r.labels)) columns.push({ id: "labels", header: "Labels", className: "labels-cell", cell: (r) => r.labels });
  if (rows.some((r) => r.x !== null)) columns.push({ id: "x", header: sweepName ?? "x", numeric: true, cell: (r) => r.x ?? "" });
  columns.push(
    { id: "system", header: "System", cell: (r) => r.subject },
    { id: "this", header: "This run", numeric: true, cell: (r) => formatValue(r.a, r.unit) },
    { id: "other", header: "Other run", numeric: true, cell: (r) => formatValue(r.b, r.unit) },
    {
      id: "change",
      header: "Change",
      numeric: true,
      className: (r) => {
        const v = verdict(r.change, r.better);
        return v === "better" ? "ratio-better" : v === "worse" ? "ratio-worse" : undefined;
      },
      cell: (r) => {
        const v = verdict(r.change, r.better);
        return (
          <>
            {formatChange(r.change)}
            {v === "better" || v === "worse" ? <span className="sr-only"> ({v})</span> : null}
          </>
        );
      },
    },
  );
  return columns;
}

/** Pick another run of the same scenario; figures side by side, with the change of each. */
export function CompareRuns({ workspaceId, run, scenario, metric, otherId, onPick, sweepName }: CompareRunsProps): ReactElement {
  const candidates = useBenchmarkRuns(workspaceId, { scenario: scenario.scenario, limit: 200 });
  const other = useBenchmarkRun(workspaceId, otherId || undefined);
  const otherScenario = other.data?.document.scenarios?.find((s) => s.scenario === scenario.scenario);
  const rows = useMemo(
    () => (otherScenario ? compareScenarios(scenario, otherScenario, metric || undefined) : []),
    [scenario, otherScenario, metric],
  );
  const pairs = useMemo(() => {
    if (!otherScenario) return [];
    const right = new Map(figureCharts(otherScenario).map((c) => [c.id, c]));
    return figureCharts(scenario)
      .filter((c) => !metric || c.metric === metric)
      .flatMap((c) => {
        const r = right.get(c.id);
        return r ? [alignYAxes(c, r)] : [];
      });
  }, [scenario, otherScenario, metric]);
  const options = (candidates.data?.data ?? []).filter((r) => r.id !== run.id);

  return (
    <section className="card stack" aria-labelledby="compare-heading" data-testid="compare">
      <div className="section-header">
        <h3 id="compare-heading">Compare with another run</h3>
        <label className="inline-field">
          Other run of {scenario.scenario}
          <select value={otherId} onChange={(e) => onPick(e.target.value)} disabled={candidates.isPending}>
            <option value="">None</option>
            {options.map((r) => (
              <option key={r.id} value={r.id}>
                {r.run_id} ({when(r.started_at)}, {r.mode})
              </option>
            ))}
          </select>
        </label>
      </div>
      {candidates.isError ? <Alert>{toUserMessage(candidates.error)}</Alert> : null}
      {!otherId ? (
        <p className="muted">
          {options.length === 0
            ? `No other run of ${scenario.scenario} in this workspace yet.`
            : "Choose a run to see its figures beside these, with the change of each."}
        </p>
      ) : other.isPending ? (
        <Spinner label="Loading the other run" />
      ) : other.isError ? (
        <Alert title="Could not load the other run">{toUserMessage(other.error)}</Alert>
      ) : !otherScenario ? (
        <Alert tone="info">That run has no {scenario.scenario} scenario.</Alert>
      ) : (
        <>
          <p>
            <strong>This run</strong> {run.run_id} ({when(run.started_at)}, {scenario.mode}) against <strong>the other</strong>{" "}
            {other.data.run_id} ({when(other.data.started_at)}, {otherScenario.mode}). Change is other ÷ this − 1
            {metric ? `, for ${metricTitle(metric)}` : ""}.
          </p>
          {(() => {
            const changes = environmentChanges(run, other.data);
            return changes.length > 0 ? (
              <Alert tone="info" title="The runs' environments differ">
                {changes.join("; ")}
              </Alert>
            ) : null;
          })()}
          {rows.length === 0 ? (
            <p className="muted">The two runs share no figures{metric ? " for this metric" : ""}.</p>
          ) : (
            <div className="table-scroll">
              <DataTable
                caption={`Figures of ${run.run_id} and ${other.data.run_id}, with the change`}
                testId="compare-table"
                rows={rows}
                rowKey={(r) => r.key}
                columns={compareColumns(rows, sweepName)}
              />
            </div>
          )}
          {pairs.length > 0 ? (
            <div className="compare-charts">
              <p className="compare-col-head">This run: {run.run_id}</p>
              <p className="compare-col-head">Other run: {other.data.run_id}</p>
              {pairs.map(([left, right]) => (
                <PairedChart key={left.id} left={left} right={right} />
              ))}
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function PairedChart({ left, right }: { left: ChartSpec; right: ChartSpec }): ReactElement {
  return (
    <>
      <figure className="chart-figure" data-testid="compare-figure">
        <figcaption>{left.title} — this run</figcaption>
        <EChart option={left.option} label={`${left.label}, this run`} style={{ height: 280 }} testId="compare-chart" />
      </figure>
      <figure className="chart-figure" data-testid="compare-figure">
        <figcaption>{right.title} — other run</figcaption>
        <EChart option={right.option} label={`${right.label}, other run`} style={{ height: 280 }} testId="compare-chart" />
      </figure>
    </>
  );
}
