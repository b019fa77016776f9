import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { TextField } from "@/components/ui/TextField";
import { ApiError, fieldErrors, toUserMessage } from "@/lib/apiError";
import { changePassword } from "../api";

export interface PasswordForm {
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

/** Changing the password, which signs out every other session of the account. */
export function ChangePasswordForm(): ReactElement {
  const [form, setForm] = useState<PasswordForm>(EMPTY);
  const [touched, setTouched] = useState(false);
  const qc = useQueryClient();
  const change = useMutation({
    mutationFn: (f: PasswordForm) => changePassword(f.current, f.next),
    onSuccess: () => {
      setForm(EMPTY);
      setTouched(false);
    },
    // the other sessions ended, and the log has a new line
    onSettled: () => qc.invalidateQueries({ queryKey: ["auth"] }),
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

  return (
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
  );
}
