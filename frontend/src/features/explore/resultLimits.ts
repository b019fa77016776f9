import type { DqlQuery, DqlResult } from "@/lib/dql/dql";

/** Rows per series a query returns without LIMIT (docs/dql.md §19). */
export const DEFAULT_LIMIT = 1000;
/** Series a query returns without SLIMIT, unless the request sets `disable_slimit`. */
export const DEFAULT_SLIMIT = 20;

export interface QueryLimits {
  /** Rows per series the query may return. */
  limit: number;
  /** Series the query may return; undefined when nothing limits them. */
  slimit: number | undefined;
  /** Whether the statement (or the request) sets them, rather than the defaults. */
  explicitLimit: boolean;
  explicitSlimit: boolean;
}

/** The statement without its string literals and comments, where `LIMIT` could be written too. */
function clauses(query: string): string {
  return query
    .replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`/g, "''")
    .replace(/#[^\n]*/g, "");
}

/** The number after the last `word n` at the top level of the statement (outside parentheses). */
function lastClause(text: string, word: "LIMIT" | "SLIMIT"): number | undefined {
  let depth = 0;
  let top = "";
  for (const ch of text) {
    if (ch === "(") depth += 1;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) top += ch;
  }
  let found: number | undefined;
  for (const m of top.matchAll(new RegExp(`(?<![\\w:])${word}\\s+(\\d+)`, "gi"))) found = Number(m[1]);
  return found;
}

/** A request field's number; `0` or absent means the statement's own clause. */
function positive(v: unknown): number | undefined {
  return typeof v === "number" && v > 0 ? v : undefined;
}

/**
 * The LIMIT and SLIMIT a query runs with: the request's `limit` / `slimit` when set, else
 * the statement's clauses, else the defaults (LIMIT 1000 per series, SLIMIT 20 unless
 * `disable_slimit`). Inner statements of a nested query run without limits; only the outer
 * statement's count.
 */
export function effectiveLimits(query: string, request: Omit<DqlQuery, "query"> = {}): QueryLimits {
  const text = clauses(query);
  const limit = positive(request.limit) ?? lastClause(text, "LIMIT");
  const slimit = positive(request.slimit) ?? lastClause(text, "SLIMIT");
  return {
    limit: limit ?? DEFAULT_LIMIT,
    slimit: slimit ?? (request.disable_slimit ? undefined : DEFAULT_SLIMIT),
    explicitLimit: limit !== undefined,
    explicitSlimit: slimit !== undefined,
  };
}

export interface ResultCut {
  /** The number of series reached the series limit: there may be more. */
  series?: { shown: number; slimit: number; explicit: boolean };
  /** Some series have as many rows as the row limit: their later rows may be missing. */
  rows?: { limit: number; series: number; explicit: boolean };
}

/**
 * Whether a result may have been cut by its query's limits. Storage does not say so in the
 * answer; a result holding exactly as many series as SLIMIT, or a series holding exactly as
 * many rows as LIMIT, most likely stopped there. Metadata queries (`show_…`) are not checked.
 */
export function resultCut(query: string, result: DqlResult | undefined, request: Omit<DqlQuery, "query"> = {}): ResultCut {
  if (!result || /^\s*show_/i.test(query)) return {};
  const limits = effectiveLimits(query, request);
  const out: ResultCut = {};
  const count = result.series.length;
  if (limits.slimit !== undefined && count > 0 && count >= limits.slimit) {
    out.series = { shown: count, slimit: limits.slimit, explicit: limits.explicitSlimit };
  }
  const full = result.series.filter((s) => s.values.length >= limits.limit).length;
  if (full > 0) out.rows = { limit: limits.limit, series: full, explicit: limits.explicitLimit };
  return out;
}
