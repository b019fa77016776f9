import type { DashboardItem, DashboardSpec, Panel, PanelQuery, QueryPanel } from "@/api/dashboards";
import { PROMQL_FUNCTIONS, PROMQL_KEYWORDS } from "@/components/query-editor/promqlLanguage";
import { languageOf } from "@/lib/dql/promql";
import { queryRef } from "@/lib/dql/queryRefs";
import type { TimeRangeSpec } from "@/lib/time";
import { newPanelId, nextPanelPosition } from "./layout";
import { changePanelType, compactPanel, newPanel, type ChartVisualisation } from "./panelSpec";

/** Explore's view → the panel type that draws a result the same way. */
export function panelTypeForView(view: string): ChartVisualisation {
  return view === "area" || view === "bar" || view === "stat" || view === "table" ? view : "timeseries";
}

/** `sum by (mode) (rate(node_cpu_seconds_total{mode="idle"}[5m]))` → `node_cpu_seconds_total`: its first metric. */
function titleForPromql(query: string): string {
  // strings, selectors, ranges and label lists hold no metric name
  const text = query.replace(
    /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\{[^}]*\}|\[[^\]]*\]|\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/gi,
    " ",
  );
  for (const m of text.matchAll(/[A-Za-z_:][A-Za-z0-9_:.]*/g)) {
    const word = m[0];
    const after = text.slice((m.index ?? 0) + word.length);
    if (/^\s*\(/.test(after) || PROMQL_FUNCTIONS.includes(word) || PROMQL_KEYWORDS.includes(word.toLowerCase())) continue;
    return word.slice(0, 200);
  }
  return "New panel";
}

/**
 * A title to start from: `M::cpu:(avg(usage_user)) [::1m] BY host` → `cpu avg(usage_user)`,
 * a PromQL query → its first metric's name.
 */
export function titleForQuery(query: string, language?: string | null): string {
  if (languageOf({ language }) === "promql") return titleForPromql(query);
  const m = /^\s*M::`?([^`:]+)`?:\(/.exec(query);
  if (!m) return "New panel";
  // the field list runs to the bracket that closes the one after the measurement
  let depth = 1;
  let end = m[0].length;
  for (; end < query.length && depth > 0; end += 1) {
    if (query[end] === "(") depth += 1;
    else if (query[end] === ")") depth -= 1;
  }
  if (depth > 0) return "New panel";
  return `${m[1]} ${query.slice(m[0].length, end - 1)}`.slice(0, 200);
}

export interface ExploredQuery {
  title: string;
  /** Explore's queries (A, B …), each with its legend format and whether it is hidden. */
  queries: readonly PanelQuery[];
  /** Explore's view: line, area, bar, stat or table. */
  view: string;
  unit: string;
}

/**
 * A panel for what Explore shows, where the dashboard's Add panel would put it: its queries
 * with their references, legend formats (trimmed; none when empty) and hidden ones.
 */
export function panelFromExplore(panels: readonly DashboardItem[], q: ExploredQuery): QueryPanel {
  const base = newPanel(newPanelId(panels), nextPanelPosition(panels), "");
  base.queries = q.queries.map((item, i) => {
    const query: PanelQuery = { ref_id: queryRef(item, i), query: item.query };
    if (languageOf(item) === "promql") query.language = "promql";
    const legend = item.legend_format?.trim();
    if (legend) query.legend_format = legend;
    if (item.hidden) query.hidden = true;
    return query;
  });
  const panel = changePanelType({ ...base, title: q.title.trim() || "New panel", unit: q.unit || "none" }, panelTypeForView(q.view));
  return compactPanel(panel);
}

/** `spec` with `panel` added after its panels. */
export function withPanel(spec: DashboardSpec, panel: Panel): DashboardSpec {
  return { ...spec, panels: [...(spec.panels ?? []), panel] };
}

/** A new dashboard holding only `panel`, over Explore's time range. */
export function specWithPanel(panel: Panel, range: TimeRangeSpec): DashboardSpec {
  return { schema_version: 1, time: { from: range.from, to: range.to }, panels: [panel] };
}
