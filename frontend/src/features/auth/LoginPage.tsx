import { useState, type FormEvent, type ReactElement } from "react";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { useToken } from "@/api/useCurrentUser";
import { useInvitation } from "@/api/useWorkspaces";
import { pendingInvitation } from "@/api/workspaces";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { TextField } from "@/components/ui/TextField";
import { toUserMessage } from "@/lib/apiError";
import { sessionExpired } from "@/lib/session";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { rememberReturnPath } from "./emailLink";
import { useLogin, useSignup } from "./hooks/useAuth";

export interface LoginPageProps {
  mode?: "login" | "signup";
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function validate(email: string, password: string, signup: boolean): { email?: string; password?: string } {
  const errors: { email?: string; password?: string } = {};
  if (!EMAIL.test(email.trim())) errors.email = "Enter a valid email address.";
  if (!signup && password.length === 0) errors.password = "Enter your password.";
  return errors;
}

const INVITED_EMAIL_HINT =
  "The invitation was sent to this address and can only be accepted with it. To use another one, ask for a new invitation.";

/** The invitation code of an `/invite?code=…` path to come back to, or "". */
export function invitationCodeOf(from: string): string {
  const [path, query = ""] = from.split("?", 2);
  return path === "/invite" ? (new URLSearchParams(query).get("code")?.trim() ?? "") : "";
}

/**
 * Sign in with email and password, and go back where the user was; or start creating an
 * account: the address gets a link, whose page chooses the password (`CompleteSignupPage`).
 * Coming from an invitation, the invited address is filled in: on sign-up it cannot be
 * changed, since only that address can accept the invitation.
 */
export function LoginPage({ mode = "login" }: LoginPageProps): ReactElement {
  const token = useToken();
  const navigate = useNavigate();
  const location = useLocation();
  const loginMutation = useLogin();
  const signupMutation = useSignup();
  const signingUp = mode === "signup";
  const mutation = signingUp ? signupMutation : loginMutation;
  const from = (location.state as { from?: string } | null)?.from ?? "/";
  const invitation = useInvitation(invitationCodeOf(from));
  // only a pending invitation can still be accepted; for any other the address does not matter
  const invited = pendingInvitation(invitation.data);
  const fixedEmail = signingUp && invited !== undefined;
  const [typedEmail, setEmail] = useState<string | null>(null);
  const email = fixedEmail ? invited.email : (typedEmail ?? invited?.email ?? "");
  const [password, setPassword] = useState("");
  const [touched, setTouched] = useState(false);
  const errors = touched ? validate(email, password, signingUp) : {};
  useDocumentTitle([signingUp ? "Create an account" : "Sign in"]);

  if (token && !mutation.isPending) return <Navigate to={from} replace />;

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    const errs = validate(email, password, signingUp);
    if (errs.email || errs.password) return;
    if (signingUp) {
      // the link opens a new page, maybe a new tab: it comes back here (an invitation) from there
      rememberReturnPath(from);
      signupMutation.mutate({ email: email.trim() });
    } else {
      loginMutation.mutate({ email: email.trim(), password }, { onSuccess: () => navigate(from, { replace: true }) });
    }
  };

  const sent = signingUp ? signupMutation.data : undefined;
  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={onSubmit} noValidate aria-labelledby="auth-title">
        <div className="brand brand-lg" aria-hidden="true">
          ◉ Vigil
        </div>
        <h1 id="auth-title">{signingUp ? "Create your account" : "Sign in"}</h1>
        {from.startsWith("/invite") ? (
          <Alert tone="info" testId="auth-invite-note">
            {invited ? (
              <>
                You are joining <strong>{invited.workspace_name}</strong>:{" "}
                {signingUp ? "create your account" : "sign in"}
              </>
            ) : signingUp ? (
              "Create your account"
            ) : (
              "Sign in"
            )}{" "}
            with the email address the invitation was sent to; you will accept it next.
          </Alert>
        ) : null}
        {!signingUp && !mutation.isError && sessionExpired() ? (
          <Alert tone="info" testId="auth-expired">
            Your session has ended. Sign in again to continue where you were.
          </Alert>
        ) : null}
        {mutation.isError ? <Alert testId="auth-error">{toUserMessage(mutation.error)}</Alert> : null}
        {sent ? (
          <Alert tone="success" title="Check your inbox" testId="signup-sent">
            {sent} Open the link in it to choose your password. Nothing arrived? Look in the spam folder, or send it
            again.
          </Alert>
        ) : null}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          readOnly={fixedEmail}
          hint={fixedEmail ? INVITED_EMAIL_HINT : undefined}
          error={errors.email}
          onChange={(e) => {
            signupMutation.reset();
            setEmail(e.target.value);
          }}
        />
        {signingUp ? null : (
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            error={errors.password}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
        <Button type="submit" variant="primary" disabled={mutation.isPending}>
          {mutation.isPending ? "Please wait…" : signingUp ? (sent ? "Send the link again" : "Email me a link") : "Sign in"}
        </Button>
        {signingUp ? (
          <p className="muted small">
            We email you a link to choose your password: the account exists once you open it, so only the owner of
            an address can create one.
          </p>
        ) : (
          <p className="auth-switch">
            <Link to="/forgot-password" state={location.state}>
              Forgot your password?
            </Link>
          </p>
        )}
        <p className="auth-switch">
          {signingUp ? (
            <>
              Already have an account?{" "}
              <Link to="/login" state={location.state}>
                Sign in
              </Link>
            </>
          ) : (
            <>
              New to Vigil?{" "}
              <Link to="/signup" state={location.state}>
                Create an account
              </Link>
            </>
          )}
        </p>
      </form>
    </main>
  );
}
