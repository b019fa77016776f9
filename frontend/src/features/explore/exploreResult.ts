import { seriesLegends } from "@/components/panels/panelData";
import { formatCost, type DqlResult } from "@/lib/dql/dql";
import type { QueryItem } from "@/lib/dql/queryRefs";
import type { QueryAnswer } from "./hooks/useExploreRun";

/** What Explore draws from a run of several queries, as a panel draws its queries. */
export interface ExploreResult {
  /** The series of every query that answered, in the queries' order. */
  result: DqlResult;
  /** The query (`A`, `B` …) each series came from. */
  seriesRefs: string[];
  /** The legend format of each series (`seriesLegends`); undefined when no query has one. */
  legends: (string | undefined)[] | undefined;
}

/**
 * The answers of a run put together: each answered query's series one after the other,
 * named by that query's legend format (as it is now in `queries`, so a new legend applies
 * without running again). Queries that failed add nothing; their errors are shown apart.
 */
export function mergeAnswers(answers: readonly QueryAnswer[], queries: readonly QueryItem[]): ExploreResult {
  const answered = answers.flatMap((a) => (a.result ? [{ ...a, result: a.result }] : []));
  const legendOf = (ref: string): string | undefined =>
    queries.find((q) => q.ref_id === ref)?.legend_format?.trim() || undefined;
  const legends = seriesLegends(
    answered.map((a) => ({ refId: a.ref, query: a.query, legend: legendOf(a.ref) })),
    answered.map((a) => a.result.series.length),
  );
  return {
    result: { series: answered.flatMap((a) => a.result.series) },
    seriesRefs: answered.flatMap((a) => a.result.series.map(() => a.ref)),
    legends,
  };
}

/**
 * How long the storage took, for the result's summary: `1.2 ms` for one query, each
 * query's time for several (`A 1.2 ms · B 0.8 ms`, they run side by side); "" when the
 * storage did not say.
 */
export function costSummary(answers: readonly QueryAnswer[]): string {
  const costs = answers.flatMap((a) => (a.result?.cost ? [{ ref: a.ref, cost: formatCost(a.result.cost) }] : []));
  if (answers.length === 1) return costs[0]?.cost ?? "";
  return costs.map((c) => `${c.ref} ${c.cost}`).join(" · ");
}
