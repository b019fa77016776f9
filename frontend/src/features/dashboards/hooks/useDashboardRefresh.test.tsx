import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, fireEvent, render, screen } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { QueryPanel } from "@/api/dashboards";
import { client } from "@/client/client.gen";
import { panelQuery } from "../panelQuery";
import { useDashboardRefresh } from "./useDashboardRefresh";

function panel(id: string, query: string): QueryPanel {
  return { id, type: "timeseries", title: id, grid: { x: 0, y: 0, w: 6, h: 8 }, queries: [{ ref_id: "A", query }] };
}

const RANGE = { from: "now-1h", to: "now" };

function Dashboard({ refresh }: { refresh: string }): ReactElement {
  useQuery(panelQuery("w1", panel("cpu", "M::cpu:(avg(usage_user))"), RANGE, {}));
  useQuery(panelQuery("w1", panel("mem", "M::mem:(avg(used))"), RANGE, {}));
  const { refresh: now } = useDashboardRefresh("w1", refresh);
  return (
    <button type="button" onClick={now}>
      Refresh
    </button>
  );
}

type Sent = { at: number; queries: { query: string; time_range: [number, number] }[] };

function setVisibility(state: "visible" | "hidden"): void {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}

describe("useDashboardRefresh", () => {
  const sent: Sent[] = [];
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    vi.setSystemTime(new Date("2026-11-21T10:00:00Z"));
    client.setConfig({ baseUrl: "http://vigil.test" });
    sent.length = 0;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const body = (await req.json()) as { queries: Sent["queries"] };
      sent.push({ at: Date.now(), queries: body.queries });
      const content = body.queries.map(() => ({ series: [] }));
      return new Response(JSON.stringify({ content }), { status: 200, headers: { "Content-Type": "application/json" } });
    });
  });
  afterEach(() => {
    setVisibility("visible");
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const start = async (refresh: string): Promise<void> => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={qc}>
        <Dashboard refresh={refresh} />
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(sent).toHaveLength(1);
  };

  it("asks every panel again together on one clock, moving the relative range forward", async () => {
    await start("10s");
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(sent).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    // both panels, in one request
    expect(sent).toHaveLength(2);
    expect(sent[1].queries.map((q) => q.query)).toEqual(["M::cpu:(avg(usage_user))", "M::mem:(avg(used))"]);
    expect(sent[1].queries[0].time_range[1] - sent[0].queries[0].time_range[1]).toBe(10_000);
    expect(sent[1].queries[0].time_range[1] - sent[1].queries[0].time_range[0]).toBe(3_600_000);
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(sent).toHaveLength(4);
  });

  it("asks nothing while the tab is hidden, and catches up when it is shown again", async () => {
    await start("10s");
    setVisibility("hidden");
    await act(() => vi.advanceTimersByTimeAsync(45_000));
    expect(sent).toHaveLength(1);
    await act(async () => {
      setVisibility("visible");
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(sent).toHaveLength(2);
    expect(sent[1].queries).toHaveLength(2);
  });

  it("refreshes now on demand and restarts the clock from there", async () => {
    await start("10s");
    await act(() => vi.advanceTimersByTimeAsync(6_000));
    fireEvent.click(screen.getByRole("button", { name: "Refresh" }));
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(sent).toHaveLength(2);
    expect(sent[1].queries).toHaveLength(2);
    // not 4 s later, where the old clock would have ticked
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(sent).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(sent).toHaveLength(3);
  });

  it("does not refresh on its own when off", async () => {
    await start("");
    await act(() => vi.advanceTimersByTimeAsync(120_000));
    expect(sent).toHaveLength(1);
  });
});
