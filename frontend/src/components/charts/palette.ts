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

