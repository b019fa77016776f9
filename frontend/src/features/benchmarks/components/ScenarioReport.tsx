import { useMemo, useState, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import type { BenchmarkRunPublic, BenchmarkScenarioResult } from "../api";
import { figureCharts, metricTitle } from "../charts";
import { defaultReference, figureRows, metricsOf, subjectsOf, sweepLabelOf } from "../report";
import { headlineText } from "../scenarioLabel";
import { headlineOf, profileOf } from "../scenarios";
import { formatSeconds } from "../units";
import { ChartGrid } from "./ChartGrid";
import { CompareRuns } from "./CompareRuns";
import { ResourceCharts } from "./ResourceCharts";
import { SummaryTable } from "./SummaryTable";

export interface ReportView {
  reference: string;
  metric: string;
  compare: string;
}

export interface ScenarioReportProps {
  workspaceId: string;
  run: BenchmarkRunPublic;
  scenario: BenchmarkScenarioResult;
  view: ReportView;
  onView: (change: Partial<ReportView>) => void;
}

/** The metric the table starts on: all of them when few, else the scenario's first. */
export function defaultMetric(scenario: BenchmarkScenarioResult): string {
  return figureRows(scenario).length > 12 ? (metricsOf(scenario)[0] ?? "") : "";
}

function paramText(v: unknown): string {
  return Array.isArray(v) ? v.join(", ") : String(v);
}

/** One scenario of a run: headline, table with ratios, plots, resources, checks, notes, comparison. */
export function ScenarioReport({ workspaceId, run, scenario, view, onView }: ScenarioReportProps): ReactElement {
  const subjects = useMemo(() => subjectsOf(scenario), [scenario]);
  const metrics = useMemo(() => metricsOf(scenario), [scenario]);
  const metric = metrics.includes(view.metric) ? view.metric : view.metric === "*" ? "" : defaultMetric(scenario);
  const rows = useMemo(() => figureRows(scenario, metric || undefined), [scenario, metric]);
  const tableSubjects = subjects.filter((s) => rows.some((r) => r.cells.has(s)));
  const reference = tableSubjects.includes(view.reference) ? view.reference : defaultReference(tableSubjects);
  const allCharts = useMemo(() => figureCharts(scenario), [scenario]);
  const plots = profileOf(scenario.scenario).plots;
  const [everyPlot, setEveryPlot] = useState(false);
  const charts = everyPlot || !plots ? allCharts : allCharts.filter((c) => plots.includes(c.metric));
  const headline = headlineOf(scenario);
  const sweep = (scenario.measurements ?? []).find((m) => m.x !== null && m.x !== undefined);
  const sweepName = sweep ? sweepLabelOf(sweep)?.replace(/_/g, " ") : undefined;
  const unavailable = (scenario.systems ?? []).filter((s) => !s.available);
  const checks = scenario.checks ?? [];
  const failed = checks.filter((c) => !c.ok);
  const notes = scenario.notes ?? [];
  const params = Object.entries(scenario.parameters ?? {});

  return (
    <div className="stack scenario-report" data-testid="scenario-report" data-scenario={scenario.scenario}>
      <div className="scenario-head">
        <h2>{scenario.title}</h2>
        <p className="muted">
          Scenario <code>{scenario.scenario}</code> · {scenario.mode} mode · {formatSeconds(scenario.duration_s)} ·{" "}
          {scenario.valid === false ? (
            <span className="badge badge-danger validity">invalid: answers or runs did not agree</span>
          ) : (
            <span className="badge badge-ok validity">valid</span>
          )}
        </p>
        {headline ? (
          <p className="headline" data-testid="headline">
            <strong>{headlineText(headline)}</strong> <span className="muted">— {headline.label}, {headline.better} is better</span>
          </p>
        ) : null}
      </div>
      {unavailable.length > 0 ? (
        <Alert tone="info" title="Not every system ran">
          {unavailable.map((s) => `${s.id}: ${s.reason ?? "unavailable"}`).join("; ")}
        </Alert>
      ) : null}

      <section className="card stack" aria-labelledby="summary-heading">
        <div className="section-header">
          <h3 id="summary-heading">Summary</h3>
          <div className="toolbar">
            <label className="inline-field">
              Metric
              <select value={metric || "*"} onChange={(e) => onView({ metric: e.target.value })}>
                <option value="*">All metrics</option>
                {metrics.map((m) => (
                  <option key={m} value={m}>
                    {metricTitle(m)}
                  </option>
                ))}
              </select>
            </label>
            <label className="inline-field">
              Reference
              <select value={reference} onChange={(e) => onView({ reference: e.target.value })} data-testid="reference-select">
                {tableSubjects.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>
        <p className="muted small">Each figure with its ratio to {reference} (value ÷ reference); green where it is better, red where worse.</p>
        <SummaryTable rows={rows} subjects={tableSubjects} reference={reference} sweepName={sweepName} />
      </section>

      <section className="stack" aria-labelledby="figures-heading">
        <div className="section-header">
          <h3 id="figures-heading">Figures</h3>
          {plots ? (
            <label className="inline-field">
              <input type="checkbox" checked={everyPlot} onChange={(e) => setEveryPlot(e.target.checked)} />
              Plot every metric ({allCharts.length} plots)
            </label>
          ) : null}
        </div>
        <ChartGrid charts={charts} />
      </section>

      <ResourceCharts scenario={scenario} cpuCount={run.document.environment.cpu_count} />

      {checks.length > 0 || notes.length > 0 || params.length > 0 ? (
        <section className="card notes-grid" aria-label="Parameters, checks and notes">
          <div>
            <h3>Parameters</h3>
            <dl className="env-list" data-testid="parameters">
              {params.map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{paramText(v)}</dd>
                </div>
              ))}
            </dl>
          </div>
          <div>
            {checks.length > 0 ? (
              <>
                <h3>Answer checks</h3>
                <p>
                  {checks.length - failed.length} of {checks.length} questions answered with the same numbers by every system.
                </p>
                {failed.length > 0 ? (
                  <ul className="check-list">
                    {failed.map((c, i) => (
                      <li key={`${c.question}-${i}`}>
                        <span className="badge badge-danger validity">failed</span> {c.question}: {c.detail}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </>
            ) : null}
            {notes.length > 0 ? (
              <>
                <h3>Notes</h3>
                <ul className="note-list" data-testid="notes">
                  {notes.map((n, i) => (
                    <li key={i}>{n}</li>
                  ))}
                </ul>
              </>
            ) : null}
          </div>
        </section>
      ) : null}

      <CompareRuns
        workspaceId={workspaceId}
        run={run}
        scenario={scenario}
        metric={metric}
        otherId={view.compare}
        onPick={(compare) => onView({ compare })}
        sweepName={sweepName}
      />
    </div>
  );
}
