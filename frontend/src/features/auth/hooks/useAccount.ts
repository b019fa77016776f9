import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { endOtherSessions, endSessionById, listSessions, readSecurityLog } from "../api";

export const sessionsQueryKey = ["auth", "sessions"] as const;
export const securityLogQueryKey = ["auth", "security-log"] as const;

/** The account's open sessions (browsers and devices signed in). */
export function useSessions() {
  return useQuery({ queryKey: sessionsQueryKey, queryFn: ({ signal }) => listSessions(signal) });
}

function useInvalidateAccount(): () => Promise<unknown> {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: sessionsQueryKey }),
      qc.invalidateQueries({ queryKey: securityLogQueryKey }),
    ]);
}

export function useEndSession() {
  const invalidate = useInvalidateAccount();
  return useMutation({ mutationFn: (sessionId: string) => endSessionById(sessionId), onSettled: invalidate });
}

export function useEndOtherSessions() {
  const invalidate = useInvalidateAccount();
  return useMutation({ mutationFn: endOtherSessions, onSettled: invalidate });
}

export const SECURITY_LOG_PAGE = 20;

/** One page of the account's security log, newest first. */
export function useSecurityLog(page: number, renewals: boolean) {
  return useQuery({
    queryKey: [...securityLogQueryKey, page, renewals],
    queryFn: ({ signal }) =>
      readSecurityLog({ offset: page * SECURITY_LOG_PAGE, limit: SECURITY_LOG_PAGE, renewals }, signal),
    placeholderData: keepPreviousData,
  });
}
