import { useIsFetching, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { panelQueryPrefix } from "@/components/panels/panelData";
import { parseRefresh } from "@/lib/refresh";

export interface DashboardRefresh {
  /** Asks every panel on the page again now; the next automatic refresh is a full interval later. */
  refresh: () => void;
  /** Whether some panel is asking for its data. */
  fetching: boolean;
}

/**
 * One clock for the whole dashboard: every `refresh` (`30s`; "" = off) all the panels on the
 * page ask again together, in one batch, instead of each on a timer of its own that drifts
 * from the others. Panel queries resolve a relative range when they are sent, so each refresh
 * moves `now-1h` forward. Nothing is asked while the tab is hidden; coming back after a missed
 * refresh refreshes at once. A panel still loading from the previous round keeps its request.
 */
export function useDashboardRefresh(workspaceId: string, refresh: string): DashboardRefresh {
  const qc = useQueryClient();
  const intervalMs = parseRefresh(refresh);
  const fetching = useIsFetching({ queryKey: panelQueryPrefix(workspaceId) }) > 0;
  // A manual refresh restarts the clock.
  const [round, setRound] = useState(0);

  const refetch = useCallback(
    (cancelRefetch: boolean) =>
      void qc.refetchQueries({ queryKey: panelQueryPrefix(workspaceId), type: "active" }, { cancelRefetch }),
    [qc, workspaceId],
  );
  const refetchRef = useRef(refetch);
  refetchRef.current = refetch;

  useEffect(() => {
    if (!intervalMs) return;
    let missed = false;
    const tick = (): void => {
      if (document.visibilityState === "hidden") {
        missed = true;
        return;
      }
      refetchRef.current(false);
    };
    const timer = window.setInterval(tick, intervalMs);
    const onVisibility = (): void => {
      if (document.visibilityState !== "visible" || !missed) return;
      missed = false;
      refetchRef.current(false);
      setRound((r) => r + 1);
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [intervalMs, round]);

  const now = useCallback(() => {
    refetch(true);
    setRound((r) => r + 1);
  }, [refetch]);

  return { refresh: now, fetching };
}
