import { queryOptions, useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { getToken, setToken, subscribeToken } from "@/lib/session";
import { login, readMe, signup, type CurrentUser } from "../api";

export const meQueryKey = ["auth", "me"] as const;

/** The current bearer token; re-renders when signing in or out (also on a 401). */
export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, () => null);
}

/** Who holds `token`; shared by the page hook and the router's prefetch. */
export function currentUserQuery(token: string | null) {
  return queryOptions({
    queryKey: [...meQueryKey, token],
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
      setToken(res.access_token);
    },
  });
}

export function useSignup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ email, password, fullName }: { email: string; password: string; fullName?: string }) =>
      signup(email, password, fullName),
    onSuccess: (res) => {
      qc.clear();
      setToken(res.access_token);
    },
  });
}

export function useLogout(): () => void {
  const qc = useQueryClient();
  return () => {
    setToken(null);
    qc.clear();
  };
}
