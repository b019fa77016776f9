import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { client } from "@/client/client.gen";
import { captureDownloads } from "@/test/downloads";
import { useExportBenchmarkRun } from "./useBenchmarks";

const CSV = "run_id,scenario,mode,system,metric,value,unit,x,labels,repetitions,valid\nr1,write-cost,small,vigil,points_per_second,2678.0,points/s,,,,true\n";

function wrapper({ children }: { children: ReactNode }): ReactNode {
  const qc = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
}

describe("useExportBenchmarkRun", () => {
  const asked: string[] = [];
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    asked.length = 0;
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  it("downloads the backend's export as <run_id>.<format>, the text as it came", async () => {
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      asked.push(req.url);
      return new Response(CSV, { status: 200, headers: { "Content-Type": "text/csv; charset=utf-8" } });
    });
    const blobs = captureDownloads();
    const clicked = vi.mocked(HTMLAnchorElement.prototype.click);
    const { result } = renderHook(() => useExportBenchmarkRun("w1"), { wrapper });
    act(() => result.current.mutate({ benchmarkId: "b1", runId: "small-all-final", format: "csv" }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(asked).toEqual(["http://vigil.test/api/v1/workspaces/w1/benchmarks/b1/export?format=csv"]);
    expect(blobs).toHaveLength(1);
    expect(blobs[0].type).toBe("text/csv");
    expect(await blobs[0].text()).toBe(CSV);
    expect((clicked.mock.contexts[0] as HTMLAnchorElement).download).toBe("small-all-final.csv");
  });

  it("downloads nothing and keeps the API's message when the export is refused", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(JSON.stringify({ detail: "Benchmark run not found", code: "not_found" }), {
          status: 404,
          headers: { "Content-Type": "application/json" },
        }),
    );
    const blobs = captureDownloads();
    const { result } = renderHook(() => useExportBenchmarkRun("w1"), { wrapper });
    act(() => result.current.mutate({ benchmarkId: "gone", runId: "r", format: "md" }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(blobs).toEqual([]);
    expect(result.current.error?.message).toBe("Benchmark run not found");
  });
});
