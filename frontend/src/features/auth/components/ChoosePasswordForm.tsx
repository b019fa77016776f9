import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent, type ReactElement } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Spinner } from "@/components/ui/Spinner";
import { TextField } from "@/components/ui/TextField";
import { fieldErrors, toUserMessage } from "@/lib/apiError";
import type { EmailLink } from "../api";
import { tokenFromHash } from "../emailLink";

export interface NewPassword {
  password: string;
  repeat: string;
}

/** What is wrong with a new password before it is sent. */
export function checkNewPassword(f: NewPassword): Partial<Record<keyof NewPassword, string>> {
  const errors: Partial<Record<keyof NewPassword, string>> = {};
  if (f.password.length < 8) errors.password = "Use at least 8 characters.";
  else if (f.password.length > 128) errors.password = "Use at most 128 characters.";
  if (!errors.password && f.repeat !== f.password) errors.repeat = "The two passwords differ.";
  return errors;
}

export interface ChoosePasswordFormProps {
  /** "signup": the account is made (and a name asked); "reset": the password replaced. */
  purpose: "signup" | "reset";
  /** What the link is for (the address), looked up by its token. */
  inspect: (token: string) => Promise<EmailLink>;
  /** Sends the form; resolves once signed in. */
  submit: (token: string, password: string, fullName: string) => Promise<unknown>;
  submitting: boolean;
  error: unknown;
  /** Where to go once signed in. */
  next: () => string;
}

/**
 * The page an emailed link opens: the token comes after `#` (never sent to a server), is
 * taken from the address bar at once, and the link is checked before the password is asked.
 */
export function ChoosePasswordForm({ purpose, inspect, submit, submitting, error, next }: ChoosePasswordFormProps): ReactElement {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromHash(location.hash));
  useEffect(() => {
    // drop the token from the address bar and the history entry
    if (location.hash) navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [location.hash, location.pathname, location.search, navigate]);
  const link = useQuery({
    queryKey: ["auth", "email-link", purpose, token],
    queryFn: () => inspect(token),
    enabled: token !== "",
    retry: false,
    staleTime: Infinity,
  });
  const [form, setForm] = useState<NewPassword>({ password: "", repeat: "" });
  const [fullName, setFullName] = useState("");
  const [touched, setTouched] = useState(false);
  const local = touched ? checkNewPassword(form) : {};
  const server = fieldErrors(error);
  const passwordField = purpose === "signup" ? "password" : "new_password";
  const serverPassword = server[passwordField];
  const otherError = error && !serverPassword ? toUserMessage(error) : null;
  const again = purpose === "signup" ? { to: "/signup", label: "Sign up again" } : { to: "/forgot-password", label: "Ask for a new link" };

  if (!token) {
    return (
      <Alert title="This link is incomplete" testId="link-error">
        Open the whole link from the email (it ends with <code>#token=…</code>). <Link to={again.to}>{again.label}</Link>
      </Alert>
    );
  }
  if (link.isPending) return <Spinner label="Checking the link" />;
  if (link.isError) {
    return (
      <Alert title="This link cannot be used" testId="link-error">
        {toUserMessage(link.error)} <Link to={again.to}>{again.label}</Link>
      </Alert>
    );
  }

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    if (Object.keys(checkNewPassword(form)).length > 0) return;
    void submit(token, form.password, fullName.trim()).then(
      () => navigate(next(), { replace: true }),
      () => undefined, // shown from `error`
    );
  };

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label={purpose === "signup" ? "Choose your password" : "Choose a new password"}>
      {otherError ? <Alert testId="auth-error">{otherError}</Alert> : null}
      {/* for password managers: the account the new password belongs to */}
      <TextField label="Email" name="email" type="email" autoComplete="username" value={link.data.email} readOnly />
      {purpose === "signup" ? (
        <TextField
          label="Full name"
          name="full_name"
          autoComplete="name"
          value={fullName}
          maxLength={200}
          onChange={(e) => setFullName(e.target.value)}
        />
      ) : null}
      <TextField
        label={purpose === "signup" ? "Password" : "New password"}
        name="password"
        type="password"
        autoComplete="new-password"
        hint="8 to 128 characters that are hard to guess: a few uncommon words work well."
        value={form.password}
        error={local.password ?? serverPassword}
        onChange={(e) => setForm((f) => ({ ...f, password: e.target.value }))}
      />
      <TextField
        label={purpose === "signup" ? "Password again" : "New password again"}
        name="repeat"
        type="password"
        autoComplete="new-password"
        value={form.repeat}
        error={local.repeat}
        onChange={(e) => setForm((f) => ({ ...f, repeat: e.target.value }))}
      />
      <Button type="submit" variant="primary" disabled={submitting}>
        {submitting ? "Please wait…" : purpose === "signup" ? "Create account" : "Set password and sign in"}
      </Button>
    </form>
  );
}
