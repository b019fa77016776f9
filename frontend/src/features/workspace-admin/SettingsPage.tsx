import type { ReactElement } from "react";
import { NavLink, Outlet, useLocation } from "react-router";
import { useCurrentWorkspace } from "@/api/useCurrentWorkspace";
import { canAdmin } from "@/api/useWorkspaces";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import "./settings.css";

interface SettingsSection {
  path: string;
  label: string;
  /** Only owners and admins can use it; others see an explanation. */
  adminOnly?: boolean;
}

export const SETTINGS_SECTIONS: SettingsSection[] = [
  { path: "general", label: "General" },
  { path: "members", label: "Members" },
  { path: "invitations", label: "Invitations", adminOnly: true },
  { path: "keys", label: "API keys", adminOnly: true },
  { path: "limits", label: "Limits & usage" },
  { path: "audit", label: "Audit log", adminOnly: true },
];

/** Workspace settings: a side navigation and one sub-page per section, each with its own URL. */
export function SettingsPage(): ReactElement {
  const workspace = useCurrentWorkspace();
  const admin = canAdmin(workspace.role);
  // the section is the path's last part: /w/<id>/settings/<section>
  const { pathname } = useLocation();
  const section = SETTINGS_SECTIONS.find((s) => pathname.replace(/\/+$/, "").endsWith(`/settings/${s.path}`));
  useDocumentTitle([section?.label, "Settings", workspace.name]);
  return (
    <div className="page">
      <div className="page-header">
        <h1>Settings · {workspace.name}</h1>
        {!admin ? (
          <span className="badge" data-testid="settings-read-only">
            Read-only: you are {workspace.role === "editor" ? "an editor" : `a ${workspace.role}`}
          </span>
        ) : null}
      </div>
      <div className="settings-layout">
        <nav className="settings-nav card" aria-label="Settings">
          {SETTINGS_SECTIONS.map((s) => (
            <NavLink key={s.path} to={s.path}>
              <span>{s.label}</span>
              {s.adminOnly && !admin ? <span className="nav-hint">admins</span> : null}
            </NavLink>
          ))}
        </nav>
        <div className="settings-content">
          <Outlet context={workspace} />
        </div>
      </div>
    </div>
  );
}
