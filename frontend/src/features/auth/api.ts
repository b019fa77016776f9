import {
  authChangePassword,
  authCompletePasswordReset,
  authCompleteSignup,
  authLogin,
  authReadPendingPasswordReset,
  authReadPendingSignup,
  authReadSecurityLog,
  authReadSessions,
  authRequestPasswordReset,
  authRevokeOtherSessions,
  authRevokeSession,
  authSignup,
} from "@/client/sdk.gen";
import type {
  AuditEventsPublic,
  EmailLinkPublic,
  SessionPublic,
  SessionsEnded,
  SessionsPublic,
  TokenPublic,
} from "@/client/types.gen";
import "@/lib/apiClient";

export type TokenResponse = TokenPublic;
export type Session = SessionPublic;
export type EmailLink = EmailLinkPublic;

export async function login(email: string, password: string): Promise<TokenResponse> {
  const res = await authLogin({ body: { email, password }, throwOnError: true, security: [] });
  return res.data;
}

/**
 * Starts a sign-up: the address gets a link to finish it. The answer (a sentence to show) is
 * the same whether or not the address has an account.
 */
export async function signup(email: string): Promise<string> {
  const res = await authSignup({ body: { email }, throwOnError: true, security: [] });
  return res.data.message;
}

/** The address a sign-up link was sent to (400 when the link cannot be used). */
export async function pendingSignup(token: string): Promise<EmailLink> {
  const res = await authReadPendingSignup({ body: { token }, throwOnError: true, security: [] });
  return res.data;
}

/** Finishes a sign-up from its link: the account is made and signed in. */
export async function completeSignup(token: string, password: string, fullName?: string): Promise<TokenResponse> {
  const res = await authCompleteSignup({
    body: { token, password, full_name: fullName || null },
    throwOnError: true,
    security: [],
  });
  return res.data;
}

/** Asks for a password-reset link; the answer is the same whether or not the address has an account. */
export async function requestPasswordReset(email: string): Promise<string> {
  const res = await authRequestPasswordReset({ body: { email }, throwOnError: true, security: [] });
  return res.data.message;
}

export async function pendingPasswordReset(token: string): Promise<EmailLink> {
  const res = await authReadPendingPasswordReset({ body: { token }, throwOnError: true, security: [] });
  return res.data;
}

/** Sets a new password from a reset link: every session ends and a new one starts. */
export async function completePasswordReset(token: string, newPassword: string): Promise<TokenResponse> {
  const res = await authCompletePasswordReset({
    body: { token, new_password: newPassword },
    throwOnError: true,
    security: [],
  });
  return res.data;
}

/** Changes the password; the server revokes every other session of the account. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await authChangePassword({
    body: { current_password: currentPassword, new_password: newPassword },
    throwOnError: true,
  });
}

export async function listSessions(signal?: AbortSignal): Promise<SessionsPublic> {
  const res = await authReadSessions({ signal, throwOnError: true });
  return res.data;
}

export async function endSessionById(sessionId: string): Promise<void> {
  await authRevokeSession({ path: { session_id: sessionId }, throwOnError: true });
}

export async function endOtherSessions(): Promise<SessionsEnded> {
  const res = await authRevokeOtherSessions({ throwOnError: true });
  return res.data;
}

export async function readSecurityLog(
  { offset, limit, renewals }: { offset: number; limit: number; renewals: boolean },
  signal?: AbortSignal,
): Promise<AuditEventsPublic> {
  const res = await authReadSecurityLog({ query: { offset, limit, renewals }, signal, throwOnError: true });
  return res.data;
}
