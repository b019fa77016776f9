import {
  benchmarksDeleteBenchmarkRun,
  benchmarksExportBenchmarkRun,
  benchmarksReadBenchmarkRun,
  benchmarksReadBenchmarkRuns,
} from "@/client/sdk.gen";
import type {
  BenchmarkMeasurement,
  BenchmarkResourceSeries,
  BenchmarkRunDocument,
  BenchmarkRunPublic,
  BenchmarkRunsPublic,
  BenchmarkRunSummary,
  BenchmarkScenarioOverview,
  BenchmarkScenarioResult,
} from "@/client/types.gen";
import "@/lib/apiClient";

export type {
  BenchmarkMeasurement,
  BenchmarkResourceSeries,
  BenchmarkRunDocument,
  BenchmarkRunPublic,
  BenchmarkRunsPublic,
  BenchmarkRunSummary,
  BenchmarkScenarioOverview,
  BenchmarkScenarioResult,
};

export interface BenchmarkListQuery {
  scenario?: string;
  limit?: number;
  offset?: number;
}

export async function listBenchmarkRuns(
  workspaceId: string,
  query: BenchmarkListQuery,
  signal?: AbortSignal,
): Promise<BenchmarkRunsPublic> {
  const res = await benchmarksReadBenchmarkRuns({
    path: { workspace_id: workspaceId },
    query,
    signal,
    throwOnError: true,
  });
  return res.data;
}

export async function readBenchmarkRun(workspaceId: string, benchmarkId: string, signal?: AbortSignal): Promise<BenchmarkRunPublic> {
  const res = await benchmarksReadBenchmarkRun({
    path: { workspace_id: workspaceId, benchmark_id: benchmarkId },
    signal,
    throwOnError: true,
  });
  return res.data;
}

export async function deleteBenchmarkRun(workspaceId: string, benchmarkId: string): Promise<void> {
  await benchmarksDeleteBenchmarkRun({ path: { workspace_id: workspaceId, benchmark_id: benchmarkId }, throwOnError: true });
}

/** The formats a run exports to: `vigil-bench export --format csv|md`. */
export type ExportFormat = "csv" | "md";

/**
 * A stored run as CSV (one row per measurement) or as a Markdown report, as the backend
 * serves it: the same text `vigil-bench export` writes for the document.
 */
export async function exportBenchmarkRun(workspaceId: string, benchmarkId: string, format: ExportFormat): Promise<string> {
  const res = await benchmarksExportBenchmarkRun({
    path: { workspace_id: workspaceId, benchmark_id: benchmarkId },
    query: { format },
    parseAs: "text",
    throwOnError: true,
  });
  return res.data;
}
