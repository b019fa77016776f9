/**
 * Every `data-testid` the journeys use, in one place. Prefer roles and labels in specs;
 * use these where a role does not identify the element (charts, summaries).
 */
export const testIds = {
  chart: "chart",
  workspacePicker: "workspace-picker",
  dqlEditor: "dql-editor",
  runQuery: "run-query",
  queryError: "query-error",
  queryErrorPosition: "query-error-position",
  resultSummary: "result-summary",
  emptyResult: "empty-result",
  timeRangeButton: "time-range-button",
  timezoneLabel: "timezone-label",
  authError: "auth-error",
  userEmail: "user-email",
  resultTable: "result-table",
  newKeyValue: "new-key-value",
  keysTable: "keys-table",
  panelChart: "panel-chart",
  /** Wraps a heatmap's chart; carries `data-row-count` and `data-column-count`. */
  heatmap: "heatmap",
  dashboardsTable: "dashboards-table",
  variable: (name: string) => `variable-${name}`,
  panel: "panel",
  gridCell: "grid-cell",
  dashboardSaveState: "save-state",
  saveDashboard: "save-dashboard",
  addPanel: "add-panel",
  timeShift: "time-shift",
  defaultTimeShift: "default-time-shift",
  dashboardSettings: "dashboard-settings",
  variableRow: "variable-row",
  variablePreview: "variable-preview",
  viewOnly: "view-only",
  statItem: "stat-item",
  statSparkline: "stat-sparkline",
  versionRow: "version-row",
  importError: "import-error",
  benchmarksTable: "benchmarks-table",
  benchmarksEmpty: "benchmarks-empty",
  summaryTable: "summary-table",
  referenceSelect: "reference-select",
  benchFigure: "bench-figure",
  benchChart: "bench-chart",
  benchEnvironment: "environment",
  benchNotes: "notes",
  compareTable: "compare-table",
  compareChart: "compare-chart",
  queryHistory: "query-history",
  autoRefresh: "auto-refresh",
} as const;

/** Attributes the chart component sets from what its ECharts instance holds. */
export const chartAttrs = {
  seriesCount: "data-series-count",
  pointCount: "data-point-count",
  /** `"true"` once the chart's current data is on the canvas. */
  ready: "data-ready",
  /** On a heatmap's wrapper (`testIds.heatmap`): one row per series. */
  rowCount: "data-row-count",
} as const;
