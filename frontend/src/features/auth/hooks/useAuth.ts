import { useMutation, useQueryClient } from "@tanstack/react-query";
import { setSession } from "@/lib/session";
import { login, signup } from "../api";

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

export function useSignup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ email, password, fullName }: { email: string; password: string; fullName?: string }) =>
      signup(email, password, fullName),
    onSuccess: (res) => {
      qc.clear();
      setSession(res);
    },
  });
}
