import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { effectiveRefresh, refreshParam } from "./refresh";
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

/**
 * One string search parameter with a default; setting the default removes it from the URL.
 * `replace`: a change replaces the history entry instead of adding one (a choice stepped
 * through with the arrow keys would otherwise take as many presses of Back).
 */
export function useStringParam(
  name: string,
  fallback: string,
  { replace = false }: { replace?: boolean } = {},
): [string, (v: string) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? fallback;
  const set = useCallback(
    (v: string) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (v === fallback) next.delete(name);
          else next.set(name, v);
          return next;
        },
        { replace },
      ),
    [name, fallback, replace, setParams],
  );
  return [value, set];
}

/**
 * The auto refresh kept in the URL's `refresh` (`30s`; "" = off), over a page's saved default
 * (a dashboard's `spec.refresh`; none in Explore). Choosing the default removes the parameter;
 * switching a default off writes `refresh=off`. Explore and dashboards behave the same.
 */
export function useRefreshParam(saved?: string | null): [string, (refresh: string) => void] {
  const [params, setParams] = useSearchParams();
  const refresh = effectiveRefresh(params.get("refresh"), saved);
  const set = useCallback(
    (interval: string) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        const value = refreshParam(interval, saved);
        if (value === null) next.delete("refresh");
        else next.set("refresh", value);
        return next;
      }),
    [setParams, saved],
  );
  return [refresh, set];
}
