import { useCallback, type KeyboardEvent, type ReactElement } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canEdit } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Spinner } from "@/components/ui/Spinner";
import { useConfirm } from "@/components/ui/useConfirm";
import { ApiError, toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { EnvironmentCard } from "./components/EnvironmentCard";
import { ScenarioReport, type ReportView } from "./components/ScenarioReport";
import { useBenchmarkRun, useDeleteBenchmarkRun, useExportBenchmarkRun } from "./hooks/useBenchmarks";
import { scenarioLabel } from "./scenarioLabel";
import { formatBytes } from "./units";
import "./benchmarks.css";

/**
 * A benchmark run's report. The scenario, reference system, metric and compared run live in
 * the URL (`scenario`, `ref`, `metric`, `compare`), so a link reopens the same view.
 */
export function BenchmarkRunPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const { runId = "" } = useParams();
  const run = useBenchmarkRun(workspace.id, runId);
  useDocumentTitle([run.data ? `Run ${run.data.run_id}` : "Benchmark run", "Benchmarks", workspace.name]);
  const remove = useDeleteBenchmarkRun(workspace.id);
  const exporter = useExportBenchmarkRun(workspace.id);
  const [confirm, confirmDialog] = useConfirm();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const listUrl = `/w/${workspace.id}/benchmarks`;

  const setParam = useCallback(
    (changes: Record<string, string>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v) next.set(k, v);
            else next.delete(k);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  if (run.isPending) return <Spinner label="Loading the benchmark run" />;
  if (run.isError) {
    const missing = run.error instanceof ApiError && run.error.status === 404;
    return (
      <div className="page">
        <Alert title={missing ? "Benchmark run not found" : "Could not load the benchmark run"} titleAs="h1">
          {missing ? "It may have been deleted." : toUserMessage(run.error)}
        </Alert>
        <p>
          <Link to={listUrl}>Back to benchmarks</Link>
        </p>
      </div>
    );
  }

  const data = run.data;
  const doc = data.document;
  const scenarios = doc.scenarios ?? [];
  const scenario = scenarios.find((s) => s.scenario === params.get("scenario")) ?? scenarios[0];
  const view: ReportView = { reference: params.get("ref") ?? "", metric: params.get("metric") ?? "", compare: params.get("compare") ?? "" };
  const onView = (change: Partial<ReportView>): void => {
    const mapped: Record<string, string> = {};
    if (change.reference !== undefined) mapped.ref = change.reference;
    if (change.metric !== undefined) mapped.metric = change.metric;
    if (change.compare !== undefined) mapped.compare = change.compare;
    setParam(mapped);
  };
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    const i = scenarios.indexOf(scenario);
    const next = scenarios[(i + (e.key === "ArrowRight" ? 1 : scenarios.length - 1)) % scenarios.length];
    setParam({ scenario: next.scenario, ref: "", metric: "", compare: "" });
    window.requestAnimationFrame(() => document.getElementById(`tab-${next.scenario}`)?.focus());
  };

  return (
    <div className="page benchmark-run-page">
      <nav aria-label="Breadcrumb" className="small">
        <Link to={listUrl}>Benchmarks</Link> / {data.run_id}
      </nav>
      <div className="page-header">
        <div>
          <h1>Benchmark run {data.run_id}</h1>
          <p className="muted run-meta">
            Started {formatDateTime(Date.parse(data.started_at), undefined, false)} · {data.mode} mode ·{" "}
            {data.systems.length} systems · schema v{data.schema_version} · uploaded{" "}
            {formatDateTime(Date.parse(data.uploaded_at), undefined, false)} · {formatBytes(data.size_bytes)}
          </p>
        </div>
        <div className="toolbar">
          <Button
            disabled={exporter.isPending}
            onClick={() => exporter.mutate({ benchmarkId: data.id, runId: data.run_id, format: "csv" })}
          >
            Export CSV
          </Button>
          <Button
            disabled={exporter.isPending}
            onClick={() => exporter.mutate({ benchmarkId: data.id, runId: data.run_id, format: "md" })}
          >
            Export Markdown
          </Button>
          {canEdit(workspace.role) ? (
            <Button
              variant="danger"
              disabled={remove.isPending}
              onClick={async () => {
                const ok = await confirm({
                  title: `Delete benchmark run "${data.run_id}"?`,
                  message: "Its report goes with it.",
                  confirmLabel: "Delete",
                });
                if (ok) remove.mutate(data.id, { onSuccess: () => navigate(listUrl) });
              }}
            >
              Delete
            </Button>
          ) : null}
        </div>
      </div>
      {remove.error ? <Alert>{toUserMessage(remove.error)}</Alert> : null}
      {exporter.error ? <Alert title="Export failed">{toUserMessage(exporter.error)}</Alert> : null}
      {scenarios.length > 1 ? (
        <div role="tablist" aria-label="Scenarios" className="scenario-tabs" onKeyDown={onTabKey}>
          {scenarios.map((s) => {
            const selected = s === scenario;
            return (
              <button
                key={s.scenario}
                id={`tab-${s.scenario}`}
                type="button"
                role="tab"
                aria-selected={selected}
                aria-controls="scenario-panel"
                tabIndex={selected ? 0 : -1}
                className={selected ? "scenario-tab active" : "scenario-tab"}
                onClick={() => setParam({ scenario: s.scenario, ref: "", metric: "", compare: "" })}
              >
                {scenarioLabel(s.scenario)}
                {s.valid === false ? <span className="badge badge-danger validity">invalid</span> : null}
              </button>
            );
          })}
        </div>
      ) : null}
      {scenario ? (
        <div id="scenario-panel" role={scenarios.length > 1 ? "tabpanel" : undefined} aria-labelledby={scenarios.length > 1 ? `tab-${scenario.scenario}` : undefined}>
          <ScenarioReport key={scenario.scenario} workspaceId={workspace.id} run={data} scenario={scenario} view={view} onView={onView} />
        </div>
      ) : (
        <Alert tone="info">This run has no scenarios.</Alert>
      )}
      <EnvironmentCard run={doc} />
      {confirmDialog}
    </div>
  );
}
