import type { ReactElement } from "react";
import { Link } from "react-router";
import { newMonitorLink } from "../exploreLink";

export interface CreateMonitorLinkProps {
  workspaceId: string;
  query: string;
  language?: "dql" | "promql";
}

/**
 * Explore's "Create monitor": the monitor editor, prefilled with the query that ran, in its
 * language. Editors and up only (the caller checks the role).
 */
export function CreateMonitorLink({ workspaceId, query, language = "dql" }: CreateMonitorLinkProps): ReactElement {
  return (
    <Link className="btn btn-sm" to={newMonitorLink(workspaceId, query, language)} data-testid="create-monitor">
      Create monitor
    </Link>
  );
}
