import {
  benchmarksDeleteBenchmarkRun,
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
