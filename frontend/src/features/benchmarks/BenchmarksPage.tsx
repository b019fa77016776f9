import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canEdit } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Pager } from "@/components/ui/Pager";
import { DataTable, type DataTableColumn } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useStringParam } from "@/lib/useUrlState";
import type { BenchmarkRunSummary } from "./api";
import { useBenchmarkRuns, useDeleteBenchmarkRun } from "./hooks/useBenchmarks";
import { headlineText, KNOWN_SCENARIOS, scenarioLabel } from "./scenarioLabel";
import { headlineOf } from "./scenarios";
import "./benchmarks.css";

const PAGE_SIZE = 20;

function HeadlineList({ run, scenario }: { run: BenchmarkRunSummary; scenario: string }): ReactElement {
  const shown = run.scenarios.filter((s) => !scenario || s.scenario === scenario);
  return (
    <ul className="headlines">
      {shown.map((s) => {
        const h = headlineOf(s);
        return (
          <li key={s.scenario}>
            <span className="scenario-chip">{scenarioLabel(s.scenario)}</span>{" "}
            {h ? (
              <span title={`${h.label}: ${h.subject} ÷ ${h.reference} (${h.better} is better)`}>
                {headlineText(h)} <span className="muted">{h.label}</span>
              </span>
            ) : (
              <span className="muted">no headline figure</span>
            )}
            {s.valid ? null : <span className="badge badge-danger validity">invalid</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** The workspace's benchmark runs, newest first, filterable by scenario. */
export function BenchmarksPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  useDocumentTitle(["Benchmarks", workspace.name]);
  const editable = canEdit(workspace.role);
  const [scenario, setScenario] = useStringParam("scenario", "");
  const [page, setPage] = useState(0);
  const list = useBenchmarkRuns(workspace.id, { scenario: scenario || undefined, limit: PAGE_SIZE, offset: page * PAGE_SIZE });
  const remove = useDeleteBenchmarkRun(workspace.id);
  const [confirm, confirmDialog] = useConfirm();
  const total = list.data?.count ?? 0;
  const runs = list.data?.data ?? [];
  const columns: DataTableColumn<BenchmarkRunSummary>[] = [
    {
      id: "run",
      header: "Run",
      cell: (run) => (
        <>
          <Link to={`/w/${workspace.id}/benchmarks/${run.id}${scenario ? `?scenario=${scenario}` : ""}`}>{run.run_id}</Link>
          {run.valid ? null : <span className="badge badge-danger validity">invalid</span>}
        </>
      ),
    },
    { id: "started", header: "Started", cell: (run) => formatDateTime(Date.parse(run.started_at), undefined, false) },
    { id: "mode", header: "Mode", cell: (run) => run.mode },
    { id: "systems", header: "Systems", className: "systems-cell", cell: (run) => run.systems.join(", ") },
    { id: "headlines", header: "Scenario headlines", cell: (run) => <HeadlineList run={run} scenario={scenario} /> },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      cell: (run) =>
        editable ? (
          <Button
            size="sm"
            variant="danger"
            aria-label={`Delete run ${run.run_id}`}
            disabled={remove.isPending}
            onClick={async () => {
              const ok = await confirm({
                title: `Delete benchmark run "${run.run_id}"?`,
                message: "Its report goes with it.",
                confirmLabel: "Delete",
              });
              if (ok) remove.mutate(run.id);
            }}
          >
            Delete
          </Button>
        ) : null,
    },
  ];

  return (
    <div className="page benchmarks-page">
      <div className="page-header">
        <h1>Benchmarks</h1>
        <label className="inline-field">
          Scenario
          <select
            value={scenario}
            onChange={(e) => {
              setPage(0);
              setScenario(e.target.value);
            }}
          >
            <option value="">All scenarios</option>
            {KNOWN_SCENARIOS.map((s) => (
              <option key={s} value={s}>
                {scenarioLabel(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted page-intro">
        Comparative runs of <code>vigil-bench</code> against stock VictoriaMetrics, InfluxDB and PostgreSQL on one machine.
        Headlines read <em>subject ÷ reference</em> for each scenario&apos;s main figure.
      </p>
      {remove.error ? <Alert>{toUserMessage(remove.error)}</Alert> : null}
      <section className="card" aria-label="Benchmark runs">
        <DataTable
          caption="Benchmark runs, newest first"
          testId="benchmarks-table"
          loading={list.isPending}
          loadingLabel="Loading benchmark runs"
          error={list.error}
          errorTitle="Could not load benchmark runs"
          empty={
            <EmptyState title={scenario ? `No runs of ${scenario} yet` : "No benchmark runs yet"} testId="benchmarks-empty">
              With the stack up, one command in the repository runs {scenario ? "this scenario" : "every scenario"} in
              small mode and puts its report in the demo workspace:
              <pre className="command">{scenario ? `make bench-${scenario} ARGS=--small` : "make bench-small"}</pre>
              To add a result document to this workspace instead:
              <pre className="command">
                {`vigil-bench upload --backend ${window.location.origin} \\\n  --token <access token> --workspace ${workspace.id} .vigil/bench/<run-id>.json`}
              </pre>
            </EmptyState>
          }
          rows={runs}
          rowKey={(run) => run.id}
          columns={columns}
        />
        {list.isSuccess && runs.length > 0 ? (
          <Pager
            page={page + 1}
            pages={Math.ceil(total / PAGE_SIZE)}
            onPage={(p) => setPage(p - 1)}
            label="Pages of runs"
            summary={`${page * PAGE_SIZE + 1}–${page * PAGE_SIZE + runs.length} of ${total}`}
            newestFirst
          />
        ) : null}
      </section>
      {confirmDialog}
    </div>
  );
}
