import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { DEFAULT_TIME_RANGE, type TimeRangeSpec } from "./time";

/** Time range kept in the URL (`from`, `to`), so a link reopens the same view. */
export function useTimeRangeParam(defaults: TimeRangeSpec = DEFAULT_TIME_RANGE): [TimeRangeSpec, (r: TimeRangeSpec) => void] {
  const [params, setParams] = useSearchParams();
  const range = { from: params.get("from") ?? defaults.from, to: params.get("to") ?? defaults.to };
  const set = useCallback(
    (r: TimeRangeSpec) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set("from", r.from);
          next.set("to", r.to);
          return next;
        },
        { replace: false },
      ),
    [setParams],
  );
  return [range, set];
}

/** One string search parameter with a default; setting the default removes it from the URL. */
export function useStringParam(name: string, fallback: string): [string, (v: string) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? fallback;
  const set = useCallback(
    (v: string) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        if (v === fallback) next.delete(name);
        else next.set(name, v);
        return next;
      }),
    [name, fallback, setParams],
  );
  return [value, set];
}
