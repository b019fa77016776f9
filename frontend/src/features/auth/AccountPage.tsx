import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactElement } from "react";
import { useNavigate } from "react-router";
import { useCurrentUser, useLogout } from "@/api/useCurrentUser";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { Spinner } from "@/components/ui/Spinner";
import { TextField } from "@/components/ui/TextField";
import { useConfirm } from "@/components/ui/useConfirm";
import { ApiError, fieldErrors, toUserMessage } from "@/lib/apiError";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { changePassword } from "./api";

interface PasswordForm {
  current: string;
  next: string;
  repeat: string;
}

const EMPTY: PasswordForm = { current: "", next: "", repeat: "" };

/** What is wrong with the form before it is sent, by field. */
export function checkPasswordForm(f: PasswordForm): Partial<Record<keyof PasswordForm, string>> {
  const errors: Partial<Record<keyof PasswordForm, string>> = {};
  if (!f.current) errors.current = "Enter your current password.";
  if (f.next.length < 8) errors.next = "Use at least 8 characters.";
  else if (f.next.length > 128) errors.next = "Use at most 128 characters.";
  else if (f.next === f.current) errors.next = "Choose a password different from the current one.";
  if (!errors.next && f.repeat !== f.next) errors.repeat = "The two new passwords differ.";
  return errors;
}

/**
 * The signed-in person's account: who they are, changing the password (which signs out every
 * other session), and signing out everywhere.
 */
export function AccountPage(): ReactElement {
  const me = useCurrentUser();
  useDocumentTitle(["Your account"]);
  const logout = useLogout();
  const navigate = useNavigate();
  const [confirm, confirmDialog] = useConfirm();
  const [form, setForm] = useState<PasswordForm>(EMPTY);
  const [touched, setTouched] = useState(false);
  const change = useMutation({
    mutationFn: (f: PasswordForm) => changePassword(f.current, f.next),
    onSuccess: () => {
      setForm(EMPTY);
      setTouched(false);
    },
  });

  const local = touched ? checkPasswordForm(form) : {};
  const server = fieldErrors(change.error);
  const wrongCurrent = change.error instanceof ApiError && change.error.code === "invalid_credentials";
  const errors = {
    current: local.current ?? (wrongCurrent ? "This is not your current password." : undefined),
    next: local.next ?? server.new_password,
    repeat: local.repeat,
  };
  const otherError = change.isError && !wrongCurrent && !server.new_password ? toUserMessage(change.error) : null;

  const set = (key: keyof PasswordForm) => (e: { target: { value: string } }) => {
    change.reset();
    setForm((f) => ({ ...f, [key]: e.target.value }));
  };

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    const errs = checkPasswordForm(form);
    if (Object.keys(errs).length === 0) change.mutate(form);
  };

  const onSignOutEverywhere = async (): Promise<void> => {
    const ok = await confirm({
      title: "Sign out everywhere?",
      message: "Every session of your account ends, this one included: other browsers and devices have to sign in again.",
      confirmLabel: "Sign out everywhere",
    });
    if (!ok) return;
    await logout({ everywhere: true });
    navigate("/login", { replace: true });
  };

  return (
    <section className="page account-page" aria-labelledby="account-title">
      <h1 id="account-title">Your account</h1>
      {me.isPending ? (
        <Spinner label="Loading your account" />
      ) : me.isError ? (
        <Alert title="Could not load your account">{toUserMessage(me.error)}</Alert>
      ) : (
        <dl className="account-facts">
          <dt>Email</dt>
          <dd data-testid="account-email">{me.data.email}</dd>
          {me.data.full_name ? (
            <>
              <dt>Name</dt>
              <dd>{me.data.full_name}</dd>
            </>
          ) : null}
        </dl>
      )}

      <form className="card account-form" onSubmit={onSubmit} noValidate aria-labelledby="password-title">
        <h2 id="password-title">Change your password</h2>
        <p className="muted">
          Use 8 to 128 characters that are hard to guess: a few uncommon words work well. Every other session
          of your account is signed out.
        </p>
        {change.isSuccess ? (
          <Alert tone="success" testId="password-changed">
            Your password was changed. Other browsers and devices have to sign in again.
          </Alert>
        ) : null}
        {otherError ? <Alert testId="password-error">{otherError}</Alert> : null}
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={form.current}
          onChange={set("current")}
          error={errors.current}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={form.next}
          onChange={set("next")}
          error={errors.next}
        />
        <TextField
          label="New password again"
          type="password"
          autoComplete="new-password"
          value={form.repeat}
          onChange={set("repeat")}
          error={errors.repeat}
        />
        <div className="row">
          <Button type="submit" variant="primary" disabled={change.isPending}>
            {change.isPending ? "Changing…" : "Change password"}
          </Button>
        </div>
      </form>

      <section className="card account-form" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <p className="muted">
          Signed in on a computer you no longer use, or lost a device? End every session of your account at
          once.
        </p>
        <div className="row">
          <Button variant="danger" onClick={() => void onSignOutEverywhere()}>
            Sign out everywhere
          </Button>
        </div>
      </section>
      {confirmDialog}
    </section>
  );
}
