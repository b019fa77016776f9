import { useMutation, useQueryClient } from "@tanstack/react-query";
import { setSession } from "@/lib/session";
import { completePasswordReset, completeSignup, login, requestPasswordReset, signup, type TokenResponse } from "../api";

/** Signs in; the cache of whoever was signed in before goes. */
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
