import type { CompletionSource } from "@codemirror/autocomplete";
import { useMemo } from "react";
import { queryRaw } from "@/api/query";
import { dqlCompletionSource } from "./dqlCompletion";

/**
 * The query editors' completion for one workspace: measurements, fields, tag keys and tag
 * values from its own metadata (`show_*`, every series: no `slimit`), keywords and functions.
 * One source per workspace, so its cache lasts as long as the page.
 */
export function useDqlCompletion(workspaceId: string): CompletionSource {
  return useMemo(
    () =>
      dqlCompletionSource(async (q) => {
        const res = await queryRaw(workspaceId, { queries: [{ query: q, disable_slimit: true }] });
        return res.content[0] ?? { series: [] };
      }),
    [workspaceId],
  );
}
