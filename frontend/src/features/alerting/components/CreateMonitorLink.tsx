import type { ReactElement } from "react";
import { Link } from "react-router";
import { newMonitorLink } from "../exploreLink";

/**
 * Explore's "Create monitor": the monitor editor, prefilled with the query that ran (DQL).
 * Editors and up only (the caller checks the role).
 */
export function CreateMonitorLink({ workspaceId, query }: { workspaceId: string; query: string }): ReactElement {
  return (
    <Link className="btn btn-sm" to={newMonitorLink(workspaceId, query, "dql")} data-testid="create-monitor">
      Create monitor
    </Link>
  );
}
