import type { ReactElement } from "react";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { pendingSignup } from "./api";
import { AuthCard } from "./components/AuthCard";
import { ChoosePasswordForm } from "./components/ChoosePasswordForm";
import { takeReturnPath } from "./emailLink";
import { useCompleteSignup } from "./hooks/useAuth";

/**
 * `/signup/complete#token=…`, the link a sign-up emails: choose the password (and a name);
 * the account is then made, its address verified, and signed in. Back to the invitation the
 * sign-up started from, if any.
 */
export function CompleteSignupPage(): ReactElement {
  useDocumentTitle(["Finish creating your account"]);
  const complete = useCompleteSignup();
  return (
    <AuthCard title="Finish creating your account">
      <ChoosePasswordForm
        purpose="signup"
        inspect={pendingSignup}
        submit={(token, password, fullName) => complete.mutateAsync({ token, password, fullName })}
        submitting={complete.isPending}
        error={complete.error}
        next={takeReturnPath}
      />
    </AuthCard>
  );
}
