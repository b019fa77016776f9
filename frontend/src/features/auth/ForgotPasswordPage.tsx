import { useState, type FormEvent, type ReactElement } from "react";
import { Link, useLocation } from "react-router";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { TextField } from "@/components/ui/TextField";
import { toUserMessage } from "@/lib/apiError";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { useRequestPasswordReset } from "./hooks/useAuth";

/** `/forgot-password`: the address gets a link to choose a new password, if it has an account. */
export function ForgotPasswordPage(): ReactElement {
  useDocumentTitle(["Reset your password"]);
  const location = useLocation();
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState("");
  const [touched, setTouched] = useState(false);
  const invalid = touched && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    setTouched(true);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) return;
    request.mutate({ email: email.trim() });
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={onSubmit} noValidate aria-labelledby="auth-title">
        <div className="brand brand-lg" aria-hidden="true">
          ◉ Vigil
        </div>
        <h1 id="auth-title">Reset your password</h1>
        {request.isError ? <Alert testId="auth-error">{toUserMessage(request.error)}</Alert> : null}
        {request.data ? (
          <Alert tone="success" title="Check your inbox" testId="reset-sent">
            {request.data}
          </Alert>
        ) : null}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          error={invalid ? "Enter a valid email address." : undefined}
          onChange={(e) => {
            request.reset();
            setEmail(e.target.value);
          }}
        />
        <Button type="submit" variant="primary" disabled={request.isPending}>
          {request.isPending ? "Please wait…" : "Email me a link"}
        </Button>
        <p className="auth-switch">
          Remembered it?{" "}
          <Link to="/login" state={location.state}>
            Sign in
          </Link>
        </p>
      </form>
    </main>
  );
}
