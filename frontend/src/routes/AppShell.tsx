import { useEffect, useState, type ReactElement } from "react";
import { NavLink, Outlet, useLocation, useNavigate, useParams } from "react-router";
import { useCurrentUser, useLogout } from "@/api/useCurrentUser";
import { useWorkspaces } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { ShortcutsDialog } from "@/components/ui/ShortcutsDialog";
import { Spinner } from "@/components/ui/Spinner";
import { AlertsNavLink } from "@/features/alerting/components/AlertsNavLink";
import { WorkspaceSwitcher } from "@/features/workspaces/components/WorkspaceSwitcher";
import { toUserMessage } from "@/lib/apiError";
import { useShortcuts } from "@/lib/shortcuts";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { rememberWorkspace } from "./HomeRedirect";

/** Header (brand, workspace picker, navigation, user) around every workspace page. */
export function AppShell(): ReactElement {
  const { workspaceId } = useParams();
  const { data, error, isPending } = useWorkspaces();
  const me = useCurrentUser();
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();
  const workspace = data?.data.find((w) => w.id === workspaceId);
  // each page titles the window itself; the shell only when it shows no page
  useDocumentTitle(error ? ["Could not load your workspaces"] : data && !workspace ? ["Workspace not found"] : null);

  useEffect(() => {
    if (workspace) rememberWorkspace(workspace.id);
  }, [workspace]);

  const [showShortcuts, setShowShortcuts] = useState(false);
  useShortcuts({
    "?": () => setShowShortcuts(true),
    "g e": () => navigate(`/w/${workspaceId}/explore`),
    "g d": () => navigate(`/w/${workspaceId}/dashboards`),
    "g b": () => navigate(`/w/${workspaceId}/benchmarks`),
    "g s": () => navigate(`/w/${workspaceId}/settings`),
    "g a": () => navigate(`/w/${workspaceId}/account`),
  });

  const onPick = (id: string): void => {
    // Keep the page (explore, dashboards, a settings section, …) but not workspace-specific ids or queries.
    const [page, section] = location.pathname.split("/").slice(3);
    const rest = page === "settings" && section ? `settings/${section}` : page || "explore";
    navigate(`/w/${id}/${rest}`);
  };

  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">◉ Vigil</span>
        <WorkspaceSwitcher workspaces={data?.data} current={workspace} onPick={onPick} />
        <nav aria-label="Main" className="app-nav">
          <NavLink to={`/w/${workspaceId}/explore`}>Explore</NavLink>
          <NavLink to={`/w/${workspaceId}/dashboards`}>Dashboards</NavLink>
          {workspace ? <AlertsNavLink workspaceId={workspace.id} /> : null}
          <NavLink to={`/w/${workspaceId}/benchmarks`}>Benchmarks</NavLink>
          <NavLink to={`/w/${workspaceId}/settings`}>Settings</NavLink>
          {me.data?.is_operator ? <NavLink to="/operator">Operator</NavLink> : null}
        </nav>
        <div className="app-user">
          {workspace ? <span className="role-badge" title="Your role in this workspace">{workspace.role}</span> : null}
          <NavLink
            to={`/w/${workspaceId}/account`}
            className="user-email"
            data-testid="user-email"
            title="Your account: password and sessions"
          >
            {me.data?.email ?? ""}
          </NavLink>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setShowShortcuts(true)}
            aria-label="Keyboard shortcuts"
            title="Keyboard shortcuts (?)"
            aria-haspopup="dialog"
          >
            <span aria-hidden="true">?</span>
          </Button>
          <Button size="sm" variant="ghost" onClick={() => void logout()}>
            Sign out
          </Button>
        </div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {isPending ? (
          <Spinner label="Loading workspace" />
        ) : error ? (
          <Alert title="Could not load your workspaces" titleAs="h1">{toUserMessage(error)}</Alert>
        ) : !workspace ? (
          <Alert title="Workspace not found" titleAs="h1">
            This workspace does not exist or you are not a member. Pick another one above.
          </Alert>
        ) : (
          <>
            {workspace.suspended_at ? (
              <Alert title="This workspace is suspended" testId="workspace-suspended">
                {workspace.suspended_reason ? `${workspace.suspended_reason}. ` : null}
                Its data is kept, but queries and writes are refused until a platform operator resumes it.
              </Alert>
            ) : null}
            <Outlet context={workspace} />
          </>
        )}
      </main>
      {showShortcuts ? <ShortcutsDialog onClose={() => setShowShortcuts(false)} /> : null}
    </div>
  );
}
