import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { downloadText } from "@/lib/download";
import {
  deleteBenchmarkRun,
  exportBenchmarkRun,
  listBenchmarkRuns,
  readBenchmarkRun,
  type BenchmarkListQuery,
  type ExportFormat,
} from "../api";

const key = (workspaceId: string): unknown[] => ["workspaces", workspaceId, "benchmarks"];

export function useBenchmarkRuns(workspaceId: string, query: BenchmarkListQuery, enabled = true) {
  return useQuery({
    queryKey: [...key(workspaceId), "list", query],
    queryFn: ({ signal }) => listBenchmarkRuns(workspaceId, query, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** One run with its whole document; documents never change, so it stays fresh. */
export function useBenchmarkRun(workspaceId: string, benchmarkId: string | undefined) {
  return useQuery({
    queryKey: [...key(workspaceId), "run", benchmarkId],
    queryFn: ({ signal }) => readBenchmarkRun(workspaceId, benchmarkId ?? "", signal),
    enabled: Boolean(benchmarkId),
    staleTime: Infinity,
  });
}

export function useDeleteBenchmarkRun(workspaceId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (benchmarkId: string) => deleteBenchmarkRun(workspaceId, benchmarkId),
    onSettled: () => qc.invalidateQueries({ queryKey: [...key(workspaceId), "list"] }),
  });
}

const EXPORT_TYPES: Record<ExportFormat, string> = { csv: "text/csv", md: "text/markdown" };

/** Downloads a run's CSV or Markdown export from the backend, as `<run_id>.csv` or `.md`. */
export function useExportBenchmarkRun(workspaceId: string) {
  return useMutation({
    mutationFn: async ({ benchmarkId, format }: { benchmarkId: string; runId: string; format: ExportFormat }) =>
      exportBenchmarkRun(workspaceId, benchmarkId, format),
    onSuccess: (text, { runId, format }) => downloadText(text, `${runId}.${format}`, EXPORT_TYPES[format]),
  });
}
