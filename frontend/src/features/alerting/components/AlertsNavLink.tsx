import type { ReactElement } from "react";
import { NavLink } from "react-router";
import { useAlertSummary } from "../hooks/useAlerts";
import { SEVERITIES } from "../severity";
import "../alerting.css";

/**
 * The header's link to the alerting pages, with the number of alerts firing now (asked every
 * 15 s), coloured by the worst severity among them. The count is part of the link's name.
 */
export function AlertsNavLink({ workspaceId }: { workspaceId: string }): ReactElement {
  const summary = useAlertSummary(workspaceId);
  const firing = summary.data?.firing ?? 0;
  const worst = SEVERITIES.find((s) => (summary.data?.by_severity[s] ?? 0) > 0) ?? "critical";
  return (
    <NavLink to={`/w/${workspaceId}/alerts`} data-testid="alerts-nav" data-firing={firing}>
      Alerts
      {firing > 0 ? (
        <>
          {" "}
          <span className={`nav-count worst-${worst}`} data-testid="alerts-badge" aria-hidden="true">
            {firing}
          </span>
          <span className="sr-only">({firing} firing)</span>
        </>
      ) : null}
    </NavLink>
  );
}
