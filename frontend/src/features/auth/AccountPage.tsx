import type { ReactElement } from "react";
import { useNavigate } from "react-router";
import { useCurrentUser, useLogout } from "@/api/useCurrentUser";
import { Alert } from "@/components/ui/Alert";
import { Spinner } from "@/components/ui/Spinner";
import { useConfirm } from "@/components/ui/useConfirm";
import { toUserMessage } from "@/lib/apiError";
import { useDocumentTitle } from "@/lib/useDocumentTitle";
import { ChangePasswordForm } from "./components/ChangePasswordForm";
import { SecurityLogCard } from "./components/SecurityLogCard";
import { SessionsCard } from "./components/SessionsCard";

export { checkPasswordForm } from "./components/ChangePasswordForm";

/**
 * The signed-in person's account: who they are, changing the password (which signs out every
 * other session), their sessions (sign out one, the others, or all), and their security log.
 */
export function AccountPage(): ReactElement {
  const me = useCurrentUser();
  useDocumentTitle(["Your account"]);
  const logout = useLogout();
  const navigate = useNavigate();
  const [confirm, confirmDialog] = useConfirm();
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

      <ChangePasswordForm />

      <SessionsCard onSignOutEverywhere={() => void onSignOutEverywhere()} />
      <SecurityLogCard />
      {confirmDialog}
    </section>
  );
}
