import type { ReactElement } from "react";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { pendingPasswordReset } from "./api";
import { AuthCard } from "./components/AuthCard";
import { ChoosePasswordForm } from "./components/ChoosePasswordForm";
import { useCompletePasswordReset } from "./hooks/useAuth";

/**
 * `/reset-password#token=…`, the link a password reset emails: choose a new password. Every
 * session of the account ends, and this browser is signed in.
 */
export function ResetPasswordPage(): ReactElement {
  useDocumentTitle(["Choose a new password"]);
  const complete = useCompletePasswordReset();
  return (
    <AuthCard title="Choose a new password">
      <p className="muted small">Every browser and device signed in to your account is signed out.</p>
      <ChoosePasswordForm
        purpose="reset"
        inspect={pendingPasswordReset}
        submit={(token, password) => complete.mutateAsync({ token, password })}
        submitting={complete.isPending}
        error={complete.error}
        next={() => "/"}
      />
    </AuthCard>
  );
}
