import { useCallback } from "react";
import { useSearchParams } from "react-router";
import type { TimeRangeSpec } from "@/lib/time";
import { timeShiftParam } from "@/lib/timeShift";

export interface DashboardUrl {
  /** The time range (`from`, `to`). */
  setRange: (range: TimeRangeSpec) => void;
  /** The comparison (`compare`), kept out of the link when it is the saved default. */
  setCompare: (shift: string) => void;
  /** The panel shown alone (`viewPanel`; "" = the whole dashboard), a history entry of its own. */
  setViewPanel: (id: string) => void;
  /** A variable's selected values (`var-<name>`, repeated). */
  setVariable: (name: string, values: string[]) => void;
}

/**
 * What a dashboard shows lives in its URL, so the link shares the view; these change it. The
 * page reads it with `dashboardView`. `savedShift` is the dashboard's default comparison.
 */
export function useDashboardUrl(savedShift: string | null | undefined): DashboardUrl {
  const [, setParams] = useSearchParams();
  const setCompare = useCallback(
    (shift: string) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        const value = timeShiftParam(shift, savedShift);
        if (value === null) next.delete("compare");
        else next.set("compare", value);
        return next;
      }),
    [setParams, savedShift],
  );
  const setRange = useCallback(
    (r: TimeRangeSpec) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        next.set("from", r.from);
        next.set("to", r.to);
        return next;
      }),
    [setParams],
  );
  // a history entry of its own: Back returns to the whole dashboard
  const setViewPanel = useCallback(
    (id: string) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set("viewPanel", id);
        else next.delete("viewPanel");
        return next;
      }),
    [setParams],
  );
  const setVariable = useCallback(
    (name: string, v: string[]): void =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete(`var-${name}`);
          v.forEach((x) => next.append(`var-${name}`, x));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { setRange, setCompare, setViewPanel, setVariable };
}
