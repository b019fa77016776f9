import type { Severity } from "@/api/alertEvents";

/**
 * ECharts' default palette, set on each series explicitly: a past (time-shifted) series takes
 * its present series' colour, and lines drawn merged keep theirs.
 */
export const SERIES_COLORS = [
  "#5470c6",
  "#91cc75",
  "#fac858",
  "#ee6666",
  "#73c0de",
  "#3ba272",
  "#fc8452",
  "#9a60b4",
  "#ea7ccc",
];


/**
 * Each alert severity's colour on charts (threshold bands, alert areas, annotations): the same
 * in both themes, drawn translucent over the plot. Text uses the theme's `--sev-*` colours.
 */
export const SEVERITY_COLORS: Record<Severity | "nodata", string> = {
  critical: "#e5484d",
  error: "#f76b15",
  warning: "#e2a300",
  info: "#3e7bfa",
  nodata: "#8b8d98",
};

/** The colour of resolved alerts on charts. */
export const RESOLVED_COLOR = "#30a46c";
