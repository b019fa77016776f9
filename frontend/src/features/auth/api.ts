import { authChangePassword, authLogin, authSignup } from "@/client/sdk.gen";
import type { TokenPublic } from "@/client/types.gen";
import "@/lib/apiClient";

export type TokenResponse = TokenPublic;

export async function login(email: string, password: string): Promise<TokenResponse> {
  const res = await authLogin({ body: { email, password }, throwOnError: true, security: [] });
  return res.data;
}

/** Creates the account and returns a session for it. */
export async function signup(email: string, password: string, fullName?: string): Promise<TokenResponse> {
  const res = await authSignup({ body: { email, password, full_name: fullName || null }, throwOnError: true, security: [] });
  return res.data;
}

/** Changes the password; the server revokes every other session of the account. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await authChangePassword({
    body: { current_password: currentPassword, new_password: newPassword },
    throwOnError: true,
  });
}
