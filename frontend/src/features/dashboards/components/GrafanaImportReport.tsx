import { useEffect, useRef, type ReactElement } from "react";
import type { GrafanaImportResult, GrafanaUnmapped } from "@/api/dashboards";
import { Button } from "@/components/ui/Button";

const KIND_LABELS: Record<GrafanaUnmapped["kind"], string> = {
  dashboard: "Dashboard",
  panel: "Panel",
  query: "Query",
  variable: "Variable",
};

export interface GrafanaImportReportProps {
  result: GrafanaImportResult;
  /** Opens the new dashboard. */
  onOpen: () => void;
}

/**
 * What a Grafana import made: the new dashboard's title and how many panels it has, and each
 * thing of the Grafana dashboard it could not carry over (the panel's or variable's title and
 * why), before the dashboard is opened.
 */
export function GrafanaImportReport({ result, onOpen }: GrafanaImportReportProps): ReactElement {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const { dashboard, unmapped } = result;
  const panels = (dashboard.spec.panels ?? []).flatMap((p) => (p.type === "row" ? (p.panels ?? []) : [p])).length;
  return (
    <section className="card stack import-report" aria-labelledby="grafana-import-title" data-testid="grafana-import-report">
      <h2 id="grafana-import-title" ref={heading} tabIndex={-1}>
        Imported “{dashboard.title}”
      </h2>
      <p>
        {panels} panel{panels === 1 ? "" : "s"} and {dashboard.spec.variables?.length ?? 0} variable
        {dashboard.spec.variables?.length === 1 ? "" : "s"} were carried over from Grafana.
      </p>
      {unmapped.length === 0 ? (
        <p data-testid="grafana-unmapped-none">Everything was carried over.</p>
      ) : (
        <>
          <h3>Not carried over ({unmapped.length})</h3>
          <ul className="unmapped-list" aria-label="Not carried over" data-testid="grafana-unmapped">
            {unmapped.map((u, i) => (
              <li key={i}>
                <span className="muted">{KIND_LABELS[u.kind]}</span> <strong>{u.title}</strong>: {u.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="row">
        <Button variant="primary" onClick={onOpen}>
          Open the dashboard
        </Button>
      </div>
    </section>
  );
}
