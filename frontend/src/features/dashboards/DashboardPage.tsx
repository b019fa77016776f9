import { useCallback, useMemo, type ReactElement } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { TimeRangePicker } from "@/components/time/TimeRangePicker";
import { Alert } from "@/components/ui/Alert";
import { Spinner } from "@/components/ui/Spinner";
import { canEdit } from "@/features/workspaces/hooks/useWorkspaces";
import { toUserMessage } from "@/lib/apiError";
import { DEFAULT_TIME_RANGE, type TimeRangeSpec } from "@/lib/time";
import { useCurrentWorkspace } from "@/routes/useWorkspaceContext";
import { PanelView } from "./components/PanelView";
import { VariablePicker } from "./components/VariablePicker";
import { useDashboard } from "./hooks/useDashboards";
import { variablesFromSearch } from "./variables";

const ROW_HEIGHT = 40;

/** A dashboard: its time range and variables live in the URL (`from`, `to`, `var-<name>`). */
export function DashboardPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const { dashboardId = "" } = useParams();
  const dashboard = useDashboard(workspace.id, dashboardId);
  const [params, setParams] = useSearchParams();
  const spec = dashboard.data?.spec;

  const range: TimeRangeSpec = {
    from: params.get("from") ?? spec?.time?.from ?? DEFAULT_TIME_RANGE.from,
    to: params.get("to") ?? spec?.time?.to ?? DEFAULT_TIME_RANGE.to,
  };
  const fromUrl = useMemo(() => variablesFromSearch(params), [params]);
  const values = useMemo(() => {
    const out: Record<string, string[]> = {};
    for (const v of spec?.variables ?? []) out[v.name] = fromUrl[v.name] ?? v.default ?? [];
    return out;
  }, [spec, fromUrl]);

  const setRange = useCallback(
    (r: TimeRangeSpec) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        next.set("from", r.from);
        next.set("to", r.to);
        return next;
      }),
    [setParams],
  );
  const onZoom = useCallback(([a, b]: [number, number]) => setRange({ from: String(a), to: String(b) }), [setRange]);
  const setVariable = (name: string, v: string[]): void =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.delete(`var-${name}`);
      v.forEach((x) => next.append(`var-${name}`, x));
      return next;
    });

  if (dashboard.isPending) return <Spinner label="Loading dashboard" />;
  if (dashboard.isError) {
    return <Alert title="Could not open this dashboard">{toUserMessage(dashboard.error)}</Alert>;
  }
  const d = dashboard.data;
  const panels = d.spec.panels ?? [];
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <p className="muted small">
            <Link to={`/w/${workspace.id}/dashboards`}>Dashboards</Link> /
          </p>
          <h1>{d.title}</h1>
        </div>
        <div className="toolbar">
          {!canEdit(workspace.role) ? <span className="role-badge">read-only</span> : null}
          <TimeRangePicker value={range} onChange={setRange} />
        </div>
      </div>
      {(d.spec.variables ?? []).length > 0 ? (
        <div className="row variables" role="group" aria-label="Variables">
          {(d.spec.variables ?? []).map((v) => (
            <VariablePicker
              key={v.name}
              workspaceId={workspace.id}
              variable={v}
              value={values[v.name] ?? []}
              onChange={(x) => setVariable(v.name, x)}
            />
          ))}
        </div>
      ) : null}
      {panels.length === 0 ? (
        <Alert tone="info">This dashboard has no panels yet.</Alert>
      ) : (
        <div className="dashboard-grid" style={{ gridAutoRows: `${ROW_HEIGHT}px` }}>
          {panels.map((p) => (
            <div
              key={p.id}
              style={{ gridColumn: `${p.grid.x + 1} / span ${p.grid.w}`, gridRow: `${p.grid.y + 1} / span ${p.grid.h}` }}
            >
              <PanelView workspaceId={workspace.id} panel={p} timeRange={range} variables={values} onZoom={onZoom} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
