import { describe, expect, it } from "vitest";
import type { Monitor } from "./api";
import { filterMonitors, readMonitorFilter, statusCounts, writeMonitorFilter } from "./monitorFilters";

const m = (name: string, status: Monitor["status"], extra: Partial<Monitor> = {}): Monitor =>
  ({ id: name, name, status, query: "M::cpu:(avg(usage_user)) BY host", description: "", muted: false, ...extra }) as Monitor;

const LIST = [
  m("Disk full", "ok", { query: "M::disk:(max(used_percent)) BY host" }),
  m("CPU busy", "firing", { muted: true }),
  m("API latency", "pending", { description: "p99 of the checkout API" }),
  m("Backups", "disabled"),
  m("Agents gone", "nodata"),
];

describe("monitor filter", () => {
  it("sorts the worst status first, then by name", () => {
    expect(filterMonitors(LIST, readMonitorFilter(new URLSearchParams())).map((x) => x.name)).toEqual([
      "CPU busy",
      "Agents gone",
      "API latency",
      "Disk full",
      "Backups",
    ]);
  });

  it("searches names, descriptions and queries, every word", () => {
    const f = readMonitorFilter(new URLSearchParams("q=CHECKOUT p99"));
    expect(filterMonitors(LIST, f).map((x) => x.name)).toEqual(["API latency"]);
    expect(filterMonitors(LIST, { ...f, search: "disk used_percent" }).map((x) => x.name)).toEqual(["Disk full"]);
  });

  it("keeps the statuses picked and the muted ones, from the URL and back", () => {
    const params = new URLSearchParams("view=x&status=ok&status=firing&status=bogus&muted=1");
    const f = readMonitorFilter(params);
    expect(f).toEqual({ search: "", statuses: ["firing", "ok"], muted: true });
    expect(filterMonitors(LIST, f).map((x) => x.name)).toEqual(["CPU busy"]);
    expect(writeMonitorFilter(params, { ...f, search: "cpu" }).toString()).toBe("view=x&q=cpu&status=firing&status=ok&muted=1");
    expect(writeMonitorFilter(params, { search: " ", statuses: [], muted: false }).toString()).toBe("view=x");
  });

  it("counts the monitors in each status", () => {
    expect(statusCounts(LIST)).toEqual({ firing: 1, nodata: 1, pending: 1, error: 0, ok: 1, disabled: 1 });
  });
});
