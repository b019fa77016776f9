import { useRef, type ReactElement } from "react";
import { Navigate } from "react-router";
import { useCurrentUser } from "@/api/useCurrentUser";
import { useWorkspaces } from "@/api/useWorkspaces";
import { Alert } from "@/components/ui/Alert";
import { Spinner } from "@/components/ui/Spinner";
import { CreateWorkspaceForm } from "@/features/workspaces/components/CreateWorkspaceForm";
import { toUserMessage } from "@/lib/apiError";
import { useDocumentTitle } from "@/lib/useDocumentTitle";

const LAST_WORKSPACE = "vigil.lastWorkspace";

export function rememberWorkspace(id: string): void {
  try {
    window.localStorage.setItem(LAST_WORKSPACE, id);
  } catch {
    /* storage may be unavailable (private mode); the first workspace is used then */
  }
}

/**
 * `/`: open the last used workspace, or the first one, or offer to create one; a platform
 * operator without a workspace goes to the Operator area.
 */
export function HomeRedirect(): ReactElement {
  const { data, error, isPending } = useWorkspaces();
  const me = useCurrentUser();
  // Once the first-workspace form is shown, it decides where to go (the new workspace's
  // getting-started page); the list refreshing with that workspace must not redirect first.
  const showedForm = useRef(false);
  // titled only while it shows something of its own: it otherwise hands over to a workspace
  const showsForm = !error && data !== undefined && (showedForm.current || data.data.length === 0);
  useDocumentTitle(showsForm ? ["Create your first workspace"] : null);
  if (isPending || me.isLoading) {
    return (
      <main className="center-page">
        <Spinner label="Loading workspaces" />
      </main>
    );
  }
  if (error) {
    return (
      <main className="center-page">
        <Alert title="Could not load your workspaces" titleAs="h1">{toUserMessage(error)}</Alert>
      </main>
    );
  }
  const last = window.localStorage.getItem(LAST_WORKSPACE);
  const target = data.data.find((w) => w.id === last) ?? data.data[0];
  if (target && !showedForm.current) return <Navigate to={`/w/${target.id}/explore`} replace />;
  if (!target && !showedForm.current && me.data?.is_operator) return <Navigate to="/operator" replace />;
  showedForm.current = true;
  return (
    <main className="center-page">
      <div className="auth-card">
        <h1>Create your first workspace</h1>
        <p>A workspace holds your metrics, dashboards, members and keys.</p>
        <CreateWorkspaceForm />
      </div>
    </main>
  );
}
