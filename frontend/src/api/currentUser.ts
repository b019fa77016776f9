import { authLogout, authReadMe } from "@/client/sdk.gen";
import type { UserPublic } from "@/client/types.gen";
import "@/lib/apiClient";

/** The signed-in person, as `GET /auth/me` gives it. */
export type CurrentUser = UserPublic;

export async function readMe(signal?: AbortSignal): Promise<CurrentUser> {
  const res = await authReadMe({ signal, throwOnError: true });
  return res.data;
}

/** Revokes the current session on the server, or every session of the account. */
export async function logout(everywhere: boolean): Promise<void> {
  await authLogout({ body: { all_sessions: everywhere }, throwOnError: true });
}
