import { queryOptions, useQueries, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useCallback } from "react";
import type { DashboardVariable } from "@/api/dashboards";
import { promLabels, promLabelValues, queryRaw } from "@/api/query";
import { columnValues } from "@/lib/dql/dql";
import { languageOf } from "@/lib/dql/promql";
import { interpolateVariables } from "../variables";
import { applyVariableRegex, matchingMetrics, parsePromqlVariable, queryResultTexts } from "../variableValues";

/** What a query variable's values come from: its query (variables filled in), language and regex. */
export interface ValuesSource {
  query: string;
  language?: string | null;
  regex?: string | null;
}

/** How far back `query_result(…)` looks for each series' last value. */
const QUERY_RESULT_LOOKBACK_MS = 5 * 60_000;

/**
 * The values a DQL metadata statement lists (`show_measurement()`, `show_tag_key(…)`,
 * `show_tag_value(…)`): its `value` column, else its first column. Cached for a minute, so a
 * variable's picker and its preview in the settings share one request. Off while `query` is
 * undefined.
 */
export function useMetadataValues(workspaceId: string, query: string | undefined): UseQueryResult<string[]> {
  return useQuery(variableValuesQuery(workspaceId, query === undefined ? undefined : { query }));
}

/** A query variable's values (DQL or PromQL, through its regex); off while `source` is undefined. */
export function useVariableValues(workspaceId: string, source: ValuesSource | undefined): UseQueryResult<string[]> {
  return useQuery(variableValuesQuery(workspaceId, source));
}

/**
 * Where a query variable's values come from, with the other variables' selected `values`
 * filled into its query (`label_values(up{job="$job"}, instance)`); undefined for a variable
 * of another type.
 */
export function variableSource(variable: DashboardVariable, values: Record<string, string[]>): ValuesSource | undefined {
  if (variable.type !== "query" || !variable.query) return undefined;
  const others = Object.fromEntries(Object.entries(values).filter(([name]) => name !== variable.name));
  return { query: interpolateVariables(variable.query, others), language: variable.language, regex: variable.regex };
}

/**
 * Every value of each of `variables` (name → values; undefined while a `query` variable's
 * values are on their way): what a panel repeated for one is drawn for when All is selected.
 */
export function useVariableOptions(
  workspaceId: string,
  variables: readonly DashboardVariable[],
  values: Record<string, string[]>,
): Record<string, string[] | undefined> {
  const combine = useCallback(
    (results: UseQueryResult<string[]>[]) => {
      const out: Record<string, string[] | undefined> = {};
      variables.forEach((v, i) => {
        // values that could not be listed count as none: a panel repeated for them is drawn once
        if (v.type === "query") out[v.name] = results[i].isError ? [] : results[i].data;
        else out[v.name] = v.type === "custom" ? (v.options ?? []) : (v.default ?? []);
      });
      return out;
    },
    [variables],
  );
  return useQueries({
    queries: variables.map((v) => variableValuesQuery(workspaceId, variableSource(v, values))),
    combine,
  });
}

async function promqlValues(workspaceId: string, query: string, signal: AbortSignal): Promise<string[]> {
  const request = parsePromqlVariable(query);
  if (!request) {
    throw new Error("A PromQL variable's query is label_values(…), label_names(), metrics(…) or query_result(…).");
  }
  switch (request.kind) {
    case "labelValues":
      return promLabelValues(workspaceId, request.label, request.match, signal);
    case "labelNames":
      return promLabels(workspaceId, request.match, signal);
    case "metrics":
      return matchingMetrics(await promLabelValues(workspaceId, "__name__", undefined, signal), request.regex);
    case "queryResult": {
      const now = Date.now();
      const res = await queryRaw(
        workspaceId,
        {
          queries: [
            {
              query: request.query,
              qtype: "promql",
              time_range: [now - QUERY_RESULT_LOOKBACK_MS, now],
              step: "60s",
              disable_slimit: true,
            },
          ],
        },
        signal,
      );
      return queryResultTexts(res.content[0] ?? { series: [] });
    }
  }
}

function variableValuesQuery(workspaceId: string, source: ValuesSource | undefined) {
  const language = source ? languageOf(source) : "dql";
  return queryOptions({
    queryKey: ["dashboard-variable", workspaceId, source?.query, language, source?.regex ?? ""],
    queryFn: async ({ signal }) => {
      const query = source?.query ?? "";
      let values: string[];
      if (language === "promql") values = await promqlValues(workspaceId, query, signal);
      else {
        const res = await queryRaw(workspaceId, { queries: [{ query, disable_slimit: true }] }, signal);
        const result = res.content[0] ?? { series: [] };
        values = columnValues(result, "value");
        if (values.length === 0) values = columnValues(result);
      }
      return applyVariableRegex(values, source?.regex);
    },
    enabled: source !== undefined && source.query.trim() !== "",
    staleTime: 60_000,
    retry: false,
  });
}
