import type { CompletionSource } from "@codemirror/autocomplete";
import { useMemo } from "react";
import { promLabels, promLabelValues } from "@/api/query";
import type { QueryLanguage } from "@/lib/dql/promql";
import { promqlCompletionSource } from "./promqlCompletion";
import { useDqlCompletion } from "./useDqlCompletion";

/** The query editors' completion for each language. */
export type QueryCompletion = Readonly<Record<QueryLanguage, CompletionSource>>;

/**
 * The query editors' completion for one workspace, per language: DQL's from its metadata
 * (`useDqlCompletion`), PromQL's metric names, label names and values from its
 * Prometheus-compatible label endpoints. One source per workspace and language, so their
 * caches last as long as the page.
 */
export function useQueryCompletion(workspaceId: string): QueryCompletion {
  const dql = useDqlCompletion(workspaceId);
  const promql = useMemo(
    () =>
      promqlCompletionSource({
        labels: (match) => promLabels(workspaceId, match),
        labelValues: (label, match) => promLabelValues(workspaceId, label, match),
      }),
    [workspaceId],
  );
  return useMemo(() => ({ dql, promql }), [dql, promql]);
}
