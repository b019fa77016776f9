import { useEffect, type ReactElement } from "react";
import { NavLink, Outlet, useLocation, useNavigate, useParams } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Spinner } from "@/components/ui/Spinner";
import { useCurrentUser, useLogout } from "@/features/auth/hooks/useAuth";
import { useWorkspaces } from "@/features/workspaces/hooks/useWorkspaces";
import { toUserMessage } from "@/lib/apiError";
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

  useEffect(() => {
    if (workspace) rememberWorkspace(workspace.id);
  }, [workspace]);

  const onPick = (id: string): void => {
    // Keep the page (explore, dashboards, …) but not workspace-specific ids or queries.
    const rest = location.pathname.split("/").slice(3, 4).join("/") || "explore";
    navigate(`/w/${id}/${rest}`);
  };

  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">◉ Vigil</span>
        <label className="ws-picker">
          <span className="sr-only">Workspace</span>
          <select
            aria-label="Workspace"
            data-testid="workspace-picker"
            value={workspace?.id ?? ""}
            onChange={(e) => onPick(e.target.value)}
            disabled={!data}
          >
            {!workspace ? <option value="">Choose a workspace</option> : null}
            {data?.data.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <nav aria-label="Main" className="app-nav">
          <NavLink to={`/w/${workspaceId}/explore`}>Explore</NavLink>
          <NavLink to={`/w/${workspaceId}/dashboards`}>Dashboards</NavLink>
          <NavLink to={`/w/${workspaceId}/benchmarks`}>Benchmarks</NavLink>
          <NavLink to={`/w/${workspaceId}/settings`}>Settings</NavLink>
        </nav>
        <div className="app-user">
          {workspace ? <span className="role-badge" title="Your role in this workspace">{workspace.role}</span> : null}
          <span className="user-email" data-testid="user-email">
            {me.data?.email ?? ""}
          </span>
          <Button size="sm" variant="ghost" onClick={logout}>
            Sign out
          </Button>
        </div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {isPending ? (
          <Spinner label="Loading workspace" />
        ) : error ? (
          <Alert title="Could not load your workspaces">{toUserMessage(error)}</Alert>
        ) : !workspace ? (
          <Alert title="Workspace not found">
            This workspace does not exist or you are not a member. Pick another one above.
          </Alert>
        ) : (
          <Outlet context={workspace} />
        )}
      </main>
    </div>
  );
}
