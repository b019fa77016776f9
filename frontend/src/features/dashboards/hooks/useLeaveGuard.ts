import { useEffect } from "react";
import { useBlocker } from "react-router";
import type { Confirm } from "@/components/ui/useConfirm";

/**
 * Unsaved changes: while `dirty`, leaving the page for another one of the app asks first (in
 * the app's dialog, through `confirm`), and closing or reloading the tab asks the browser to.
 */
export function useLeaveGuard(dirty: boolean, confirm: Confirm): void {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    void confirm({
      title: "Leave without saving?",
      message: "This dashboard has unsaved changes. They are lost if you leave.",
      confirmLabel: "Leave",
      cancelLabel: "Stay",
    }).then((leave) => (leave ? blocker.proceed() : blocker.reset()));
  }, [blocker, confirm]);
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent): void => e.preventDefault();
    window.addEventListener("beforeunload", onUnload);
    return () => window.removeEventListener("beforeunload", onUnload);
  }, [dirty]);
}
