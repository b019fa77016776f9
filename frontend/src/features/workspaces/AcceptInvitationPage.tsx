import type { ReactElement } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useCurrentUser, useLogout, useToken } from "@/api/useCurrentUser";
import { useAcceptInvitation, useInvitation } from "@/api/useWorkspaces";
import { pendingInvitation, type Invitation } from "@/api/workspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Spinner } from "@/components/ui/Spinner";
import { ApiError, toUserMessage } from "@/lib/apiError";
import { formatDateTime } from "@/lib/time";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import "./workspaces.css";

/** "Ada Lovelace (ada@example.com)", or whichever of the two is known. */
function inviterOf(inv: Invitation): string {
  if (inv.inviter_name && inv.inviter_email) return `${inv.inviter_name} (${inv.inviter_email})`;
  return inv.inviter_name || inv.inviter_email || "A workspace admin";
}

const expiry = (inv: Invitation): string => formatDateTime(Date.parse(inv.expires_at), undefined, false);

/** Why an invitation that is no longer pending cannot be accepted, and what to do instead. */
function ClosedInvitation({ inv }: { inv: Invitation }): ReactElement {
  const askFor = `Ask ${inv.inviter_name || inv.inviter_email || "a workspace admin"} for a new invitation`;
  if (inv.state === "accepted") {
    return (
      <Alert tone="info" title="This invitation has already been used" testId="invite-state">
        <p>
          Each invitation works once. If you accepted it, <Link to="/">open Vigil</Link> and pick {inv.workspace_name}{" "}
          from your workspaces.
        </p>
      </Alert>
    );
  }
  if (inv.state === "revoked") {
    return (
      <Alert title="This invitation was revoked" testId="invite-state">
        <p>The link no longer works. {askFor} if you still need to join.</p>
      </Alert>
    );
  }
  return (
    <Alert title="This invitation has expired" testId="invite-state">
      <p>
        It expired on {expiry(inv)}. {askFor}.
      </p>
    </Alert>
  );
}

/**
 * `/invite?code=…`, where an invitation link leads. It says who invited you, to which workspace
 * and with which role, or why the link no longer works. Signed in, the user accepts and lands
 * in the workspace; otherwise they sign in or create an account first and come back here.
 */
export function AcceptInvitationPage(): ReactElement {
  const [params] = useSearchParams();
  const code = params.get("code")?.trim() ?? "";
  const invitation = useInvitation(code);
  const token = useToken();
  const me = useCurrentUser();
  const logout = useLogout();
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const here = `/invite?${new URLSearchParams({ code }).toString()}`;
  const pending = pendingInvitation(invitation.data);
  useDocumentTitle([invitation.data ? `Join ${invitation.data.workspace_name}` : "Invitation"]);

  let body: ReactElement;
  if (!code) {
    body = (
      <Alert title="This link has no invitation code">
        Open the complete link you were sent, or ask a workspace admin for a new invitation.
      </Alert>
    );
  } else if (invitation.isPending) {
    body = <Spinner label="Loading the invitation" />;
  } else if (invitation.isError) {
    const unknown = invitation.error instanceof ApiError && invitation.error.status === 404;
    body = (
      <Alert title={unknown ? "This invitation link is not valid" : "Could not load the invitation"} testId="invite-state">
        {toUserMessage(invitation.error)}
      </Alert>
    );
  } else if (pending === undefined) {
    body = <ClosedInvitation inv={invitation.data} />;
  } else if (!token) {
    body = (
      <>
        <p>
          Sign in, or create an account, with <strong>{pending.email}</strong>, the email address the invitation
          was sent to. You will come back here to accept it.
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
    const invitedEmail = pending.email;
    const otherAddress = me.data !== undefined && me.data.email.toLowerCase() !== invitedEmail.toLowerCase();
    const wrongAccount = otherAddress || (accept.error instanceof ApiError && accept.error.status === 403);
    body = (
      <>
        <p>
          Signed in as <strong data-testid="invite-user">{me.data?.email ?? "…"}</strong>.
        </p>
        {otherAddress ? (
          <Alert title="This invitation is for another address" testId="invite-error">
            It was sent to {invitedEmail}. Sign in with that address to accept it.
          </Alert>
        ) : accept.isError ? (
          <Alert testId="invite-error">{toUserMessage(accept.error)}</Alert>
        ) : null}
        <div className="row">
          {otherAddress ? null : (
            <Button
              variant="primary"
              disabled={accept.isPending || me.data === undefined}
              onClick={() => accept.mutate(code, { onSuccess: (ws) => navigate(`/w/${ws.id}/explore`, { replace: true }) })}
            >
              {accept.isPending ? "Joining…" : "Accept invitation"}
            </Button>
          )}
          {wrongAccount ? (
            <Button
              onClick={() => {
                void logout().then(() => navigate("/login", { state: { from: here } }));
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
        {invitation.data ? (
          <p data-testid="invite-summary">
            {inviterOf(invitation.data)} invited you to join <strong>{invitation.data.workspace_name}</strong> as{" "}
            {/^[aeiou]/.test(invitation.data.role) ? "an" : "a"} <strong>{invitation.data.role}</strong>.
            {invitation.data.state === "pending" ? ` The invitation expires on ${expiry(invitation.data)}.` : null}
          </p>
        ) : null}
        {body}
      </section>
    </main>
  );
}
