import { describe, expect, it } from "vitest";
import {
  NO_EVENT_FILTERS,
  parseTagInput,
  readEventFilters,
  toEventsQuery,
  writeEventFilters,
  type EventFilters,
} from "./eventFilters";
import { TimeRangeError } from "@/lib/time";

const NOW = Date.UTC(2026, 10, 28, 12);

describe("event filters in the URL", () => {
  it("round-trips every filter, repeated parameters for alternatives", () => {
    const filters: EventFilters = {
      monitor: "m1",
      kinds: ["resolved", "firing"],
      severities: ["warning", "critical"],
      tags: ["host=web-1", "env=prod"],
      from: "now-7d",
      to: "now",
      page: 3,
    };
    const params = writeEventFilters(filters);
    expect(params.toString()).toBe(
      "monitor=m1&kind=firing&kind=resolved&severity=critical&severity=warning&tag=host%3Dweb-1&tag=env%3Dprod&from=now-7d&to=now&page=3",
    );
    // written in a fixed order: the worst first
    expect(readEventFilters(params)).toEqual({ ...filters, kinds: ["firing", "resolved"], severities: ["critical", "warning"] });
  });

  it("leaves the defaults out and drops what it cannot read", () => {
    expect(writeEventFilters(NO_EVENT_FILTERS).toString()).toBe("");
    expect(readEventFilters(new URLSearchParams("kind=exploded&severity=fatal&tag=novalue&page=-2"))).toEqual(NO_EVENT_FILTERS);
  });

  it("becomes the API's query: since, until unless it ends now, and a page's offset", () => {
    const open = toEventsQuery({ ...NO_EVENT_FILTERS, kinds: ["firing"], tags: ["host=a"], page: 2 }, NOW);
    expect(open).toEqual({
      since: "2026-11-27T12:00:00.000Z",
      limit: 50,
      offset: 50,
      kind: ["firing"],
      tag: ["host=a"],
    });
    const closed = toEventsQuery({ ...NO_EVENT_FILTERS, monitor: "m1", from: String(NOW - 3_600_000), to: String(NOW) }, NOW);
    expect(closed).toEqual({
      since: "2026-11-28T11:00:00.000Z",
      until: "2026-11-28T12:00:00.000Z",
      limit: 50,
      offset: 0,
      monitor_id: "m1",
    });
    expect(() => toEventsQuery({ ...NO_EVENT_FILTERS, from: "yesterday" }, NOW)).toThrow(TimeRangeError);
  });

  it("reads tags typed as a list", () => {
    expect(parseTagInput(" host = web-1 , env=prod,")).toEqual({ tags: ["host=web-1", "env=prod"] });
    expect(parseTagInput("host=a, web-2")).toEqual({ tags: [], error: '"web-2" is not name=value.' });
    expect(parseTagInput("")).toEqual({ tags: [] });
  });
});
