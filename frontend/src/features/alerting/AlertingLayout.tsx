import type { ReactElement } from "react";
import { NavLink, Outlet } from "react-router";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canEdit } from "@/api/useWorkspaces";
import "./alerting.css";

interface AlertingSection {
  path: string;
  label: string;
  /** Editors and up only (channels); others see an explanation. */
  editorsOnly?: boolean;
}

export const ALERTING_SECTIONS: AlertingSection[] = [
  { path: "", label: "Firing now" },
  { path: "monitors", label: "Monitors" },
  { path: "events", label: "Events" },
  { path: "silences", label: "Silences" },
  { path: "channels", label: "Channels", editorsOnly: true },
  { path: "recording-rules", label: "Recording rules" },
];

/** The alerting area: its own navigation over each page (every page has its own heading). */
export function AlertingLayout(): ReactElement {
  const workspace = useCurrentWorkspace();
  const editor = canEdit(workspace.role);
  return (
    <div className="page">
      <nav className="alerting-nav" aria-label="Alerting">
        {ALERTING_SECTIONS.map((s) => (
          <NavLink key={s.path} to={`/w/${workspace.id}/alerts${s.path ? `/${s.path}` : ""}`} end={s.path === ""}>
            {s.label}
            {s.editorsOnly && !editor ? <span className="nav-hint muted small">editors</span> : null}
          </NavLink>
        ))}
      </nav>
      <Outlet context={workspace} />
    </div>
  );
}
