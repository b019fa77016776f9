import type { ReactElement } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { useCurrentUser, useLogout, useToken } from "@/features/auth/hooks/useAuth";
import { ApiError, toUserMessage } from "@/lib/apiError";
import { useAcceptInvitation } from "./hooks/useWorkspaces";
import "./workspaces.css";

/**
 * `/invite?code=…`, where an invitation link leads. Signed in, the user accepts and lands in
 * the workspace; otherwise they sign in or create an account first and come back here.
 */
export function AcceptInvitationPage(): ReactElement {
  const [params] = useSearchParams();
  const code = params.get("code")?.trim() ?? "";
  const token = useToken();
  const me = useCurrentUser();
  const logout = useLogout();
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const here = `/invite?${new URLSearchParams({ code }).toString()}`;

  let body: ReactElement;
  if (!code) {
    body = (
      <Alert title="This link has no invitation code">
        Open the complete link you were sent, or ask a workspace admin for a new invitation.
      </Alert>
    );
  } else if (!token) {
    body = (
      <>
        <p>
          Sign in, or create an account, with the email address the invitation was sent to. You will come back here to
          accept it.
        </p>
        <div className="row">
          <Link className="btn btn-primary" to="/signup" state={{ from: here }}>
            Create an account
          </Link>
          <Link className="btn" to="/login" state={{ from: here }}>
            Sign in
          </Link>
        </div>
      </>
    );
  } else {
    const wrongAccount = accept.error instanceof ApiError && accept.error.status === 403;
    body = (
      <>
        <p>
          Signed in as <strong data-testid="invite-user">{me.data?.email ?? "…"}</strong>.
        </p>
        {accept.isError ? <Alert testId="invite-error">{toUserMessage(accept.error)}</Alert> : null}
        <div className="row">
          <Button
            variant="primary"
            disabled={accept.isPending}
            onClick={() => accept.mutate(code, { onSuccess: (ws) => navigate(`/w/${ws.id}/explore`, { replace: true }) })}
          >
            {accept.isPending ? "Joining…" : "Accept invitation"}
          </Button>
          {wrongAccount ? (
            <Button
              onClick={() => {
                logout();
                navigate("/login", { state: { from: here } });
              }}
            >
              Use another account
            </Button>
          ) : (
            <Link to="/">Not now</Link>
          )}
        </div>
      </>
    );
  }

  return (
    <main className="auth-page">
      <section className="auth-card" aria-labelledby="invite-title">
        <div className="brand brand-lg" aria-hidden="true">
          ◉ Vigil
        </div>
        <h1 id="invite-title">Join a workspace</h1>
        {body}
      </section>
    </main>
  );
}
