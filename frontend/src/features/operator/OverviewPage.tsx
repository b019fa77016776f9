import type { ReactElement } from "react";
import { Link } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { DataTable } from "@/components/ui/DataTable";
import { EmptyState } from "@/components/ui/EmptyState";
import { Spinner } from "@/components/ui/Spinner";
import { toUserMessage } from "@/lib/apiError";
import { formatNumber } from "@/lib/format";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import type { Health } from "./api";
import { useOverview, usePlatformHealth } from "./hooks/useOperator";
import { formatMetric, USAGE_METRICS } from "./usageMetrics";

/** Operator › Overview: counts, usage totals, the top workspaces by each figure, and health. */
export function OverviewPage(): ReactElement {
  useDocumentTitle(["Overview", "Operator"]);
  const overview = useOverview();
  return (
    <div className="page stack">
      <div className="page-header">
        <h1>Platform overview</h1>
      </div>
      {overview.isPending ? (
        <Spinner label="Loading the overview" />
      ) : overview.isError ? (
        <Alert title="Could not load the overview">{toUserMessage(overview.error)}</Alert>
      ) : (
        <>
          <section className="card" aria-label="Platform totals">
            <div className="usage-figures" data-testid="operator-totals">
              <Figure label="Workspaces" value={formatNumber(overview.data.workspaces)} />
              <Figure label="Suspended" value={formatNumber(overview.data.suspended)} />
              <Figure label="Plans" value={formatNumber(overview.data.plans)} />
              <Figure label="Operators" value={formatNumber(overview.data.operators)} />
              {USAGE_METRICS.map((m) => (
                <Figure key={m.key} label={m.label} value={formatMetric(m.key, overview.data.totals[m.key])} />
              ))}
            </div>
          </section>
          <div className="operator-grid">
            {USAGE_METRICS.map((m) => (
              <section key={m.key} className="card stack" aria-labelledby={`top-${m.key}`}>
                <h2 id={`top-${m.key}`}>Top by {m.label.toLowerCase()}</h2>
                <DataTable
                  caption={`The workspaces with the most ${m.label.toLowerCase()}`}
                  testId={`top-${m.key}`}
                  rows={overview.data.top[m.key] ?? []}
                  rowKey={(t) => t.workspace_id}
                  empty={<EmptyState title="None yet" />}
                  columns={[
                    {
                      id: "name",
                      header: "Workspace",
                      rowHeader: true,
                      cell: (t) => <Link to={`/operator/workspaces?search=${t.workspace_id}`}>{t.name}</Link>,
                    },
                    { id: "value", header: m.label, numeric: true, cell: (t) => formatMetric(m.key, t.value) },
                  ]}
                />
              </section>
            ))}
          </div>
        </>
      )}
      <HealthSection />
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }): ReactElement {
  return (
    <div className="usage-figure">
      <div className="label">{label}</div>
      <div className="value">{value}</div>
    </div>
  );
}

type Component = NonNullable<Health["components"]>[string];

function describe(c: Component): string {
  const extra = c as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof extra.version === "string") parts.push(`version ${extra.version}`);
  if (typeof extra.lag === "number") parts.push(`lag ${formatNumber(extra.lag)}`);
  if (typeof extra.brokers === "number") parts.push(`${extra.brokers} broker${extra.brokers === 1 ? "" : "s"}`);
  if (c.error) parts.push(c.error);
  return parts.join(" · ");
}

/** Every component's check, as `/api/health` details them for an operator. */
function HealthSection(): ReactElement {
  const health = usePlatformHealth();
  const components = Object.entries(health.data?.components ?? {});
  return (
    <section className="card stack" aria-labelledby="health-title">
      <div className="section-header">
        <h2 id="health-title">Platform health</h2>
        {health.data ? (
          <span
            className={`badge ${health.data.status === "ok" ? "badge-ok" : "badge-danger"}`}
            data-testid="platform-status"
          >
            {health.data.status}
          </span>
        ) : null}
      </div>
      <DataTable
        caption="Each component of the platform and its check"
        testId="platform-health"
        loading={health.isPending}
        loadingLabel="Checking the platform"
        error={health.error}
        errorTitle="Could not check the platform"
        rows={components}
        rowKey={([name]) => name}
        columns={[
          { id: "name", header: "Component", rowHeader: true, cell: ([name]) => name },
          {
            id: "ok",
            header: "State",
            cell: ([, c]) => <span className={`badge ${c.ok ? "badge-ok" : "badge-danger"}`}>{c.ok ? "ok" : "failing"}</span>,
          },
          { id: "latency", header: "Latency", numeric: true, cell: ([, c]) => (c.latency_ms == null ? "–" : `${c.latency_ms} ms`) },
          { id: "detail", header: "Detail", className: "wrap", cell: ([, c]) => describe(c) },
        ]}
      />
    </section>
  );
}
