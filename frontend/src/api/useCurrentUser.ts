import { queryOptions, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { endSession, getToken, subscribeToken } from "@/lib/session";
import { logout, readMe, type CurrentUser } from "./currentUser";

export const meQueryKey = ["auth", "me"] as const;

/** The current bearer token; re-renders when signing in or out (also on a 401). */
export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, () => null);
}

/**
 * Who is signed in; shared by the page hook and the router's prefetch. Signing in clears the
 * cache, so the key only tells a session from none: a renewed token is the same user.
 */
export function currentUserQuery(token: string | null) {
  return queryOptions({
    queryKey: [...meQueryKey, token !== null],
    queryFn: ({ signal }) => readMe(signal),
    enabled: token !== null,
    staleTime: 5 * 60_000,
  });
}

export function useCurrentUser(): UseQueryResult<CurrentUser> {
  return useQuery(currentUserQuery(useToken()));
}

/**
 * Signs out: the server revokes the session (every session of the account with
 * `everywhere`), then this tab forgets it whatever the server answered.
 */
export function useLogout(): (options?: { everywhere?: boolean }) => Promise<void> {
  const qc = useQueryClient();
  return async ({ everywhere = false } = {}) => {
    try {
      if (getToken() !== null) await logout(everywhere);
    } catch {
      // signed out here all the same; an unreachable server cannot keep the session open
    }
    endSession();
    qc.clear();
  };
}
