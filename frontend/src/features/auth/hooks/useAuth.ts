import { queryOptions, useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { endSession, getToken, setSession, subscribeToken } from "@/lib/session";
import {
  completePasswordReset,
  completeSignup,
  login,
  logout,
  readMe,
  requestPasswordReset,
  signup,
  type CurrentUser,
  type TokenResponse,
} from "../api";

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

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ email, password }: { email: string; password: string }) => login(email, password),
    onSuccess: (res) => {
      qc.clear();
      setSession(res);
    },
  });
}

/** Step 1 of signing up: emails the address a link; resolves to the sentence to show. */
export function useSignup() {
  return useMutation({ mutationFn: ({ email }: { email: string }) => signup(email) });
}

/** Step 2, from the emailed link: sets the password and signs in. */
export function useCompleteSignup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ token, password, fullName }: { token: string; password: string; fullName?: string }) =>
      completeSignup(token, password, fullName),
    onSuccess: (res: TokenResponse) => {
      qc.clear();
      setSession(res);
    },
  });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: ({ email }: { email: string }) => requestPasswordReset(email) });
}

/** Sets a new password from the emailed link; every other session ends and this one starts. */
export function useCompletePasswordReset() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ token, password }: { token: string; password: string }) => completePasswordReset(token, password),
    onSuccess: (res: TokenResponse) => {
      qc.clear();
      setSession(res);
    },
  });
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
