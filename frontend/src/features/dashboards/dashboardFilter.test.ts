import { describe, expect, it } from "vitest";
import {
  describeNoMatch,
  filterDashboards,
  filterFromParams,
  isFiltering,
  matchCount,
  NO_FILTER,
  searchWords,
  toggleTag,
  withFilterParams,
  type Filterable,
} from "./dashboardFilter";

const list: Filterable[] = [
  { title: "Host overview", tags: ["hosts", "vigil-agent"] },
  { title: "CPU by host", tags: ["hosts", "prod"] },
  { title: "Checkout latency", tags: ["prod", "Payments"] },
  { title: "Scratch", tags: [] },
];
const titles = (rows: Filterable[]): string[] => rows.map((d) => d.title);

describe("filterDashboards", () => {
  it("keeps every dashboard, in order, without a filter", () => {
    expect(titles(filterDashboards(list, NO_FILTER))).toEqual(titles(list));
    expect(titles(filterDashboards(list, { search: "   ", tags: [] }))).toEqual(titles(list));
  });

  it("matches the search in titles, any case", () => {
    expect(titles(filterDashboards(list, { search: "HOST", tags: [] }))).toEqual(["Host overview", "CPU by host"]);
    expect(titles(filterDashboards(list, { search: "latenc", tags: [] }))).toEqual(["Checkout latency"]);
  });

  it("matches the search in tags, any case", () => {
    expect(titles(filterDashboards(list, { search: "payments", tags: [] }))).toEqual(["Checkout latency"]);
    expect(titles(filterDashboards(list, { search: "agent", tags: [] }))).toEqual(["Host overview"]);
  });

  it("needs every word, in any order, each in the title or a tag", () => {
    expect(titles(filterDashboards(list, { search: "host cpu", tags: [] }))).toEqual(["CPU by host"]);
    expect(titles(filterDashboards(list, { search: "  prod   host ", tags: [] }))).toEqual(["CPU by host"]);
    expect(titles(filterDashboards(list, { search: "overview prod", tags: [] }))).toEqual([]);
  });

  it("keeps the dashboards having every chosen tag, exactly as written", () => {
    expect(titles(filterDashboards(list, { search: "", tags: ["prod"] }))).toEqual(["CPU by host", "Checkout latency"]);
    expect(titles(filterDashboards(list, { search: "", tags: ["prod", "hosts"] }))).toEqual(["CPU by host"]);
    expect(titles(filterDashboards(list, { search: "", tags: ["payments"] }))).toEqual([]);
    expect(titles(filterDashboards(list, { search: "", tags: ["host"] }))).toEqual([]);
  });

  it("combines the search and the tags", () => {
    expect(titles(filterDashboards(list, { search: "checkout", tags: ["prod"] }))).toEqual(["Checkout latency"]);
    expect(titles(filterDashboards(list, { search: "checkout", tags: ["hosts"] }))).toEqual([]);
  });

  it("returns a new array and leaves the list alone", () => {
    const copy = filterDashboards(list, NO_FILTER);
    expect(copy).not.toBe(list);
    expect(copy[0]).toBe(list[0]);
  });
});

describe("the filter's state", () => {
  it("splits the search into lower-case words", () => {
    expect(searchWords("  CPU\tby  Host ")).toEqual(["cpu", "by", "host"]);
    expect(searchWords("")).toEqual([]);
  });

  it("is on with a word typed or a tag chosen", () => {
    expect(isFiltering(NO_FILTER)).toBe(false);
    expect(isFiltering({ search: "  ", tags: [] })).toBe(false);
    expect(isFiltering({ search: "cpu", tags: [] })).toBe(true);
    expect(isFiltering({ search: "", tags: ["prod"] })).toBe(true);
  });

  it("adds a tag at the end, or takes out one already chosen", () => {
    expect(toggleTag([], "prod")).toEqual(["prod"]);
    expect(toggleTag(["hosts"], "prod")).toEqual(["hosts", "prod"]);
    expect(toggleTag(["hosts", "prod"], "hosts")).toEqual(["prod"]);
  });
});

describe("the filter in the URL", () => {
  it("reads q and each tag, without blanks or repeats", () => {
    expect(filterFromParams(new URLSearchParams("q=cpu+host&tag=hosts&tag=prod&tag=hosts&tag="))).toEqual({
      search: "cpu host",
      tags: ["hosts", "prod"],
    });
    expect(filterFromParams(new URLSearchParams("from=now-1h"))).toEqual(NO_FILTER);
  });

  it("writes q and the tags, keeps other parameters, and drops what is empty", () => {
    const params = new URLSearchParams("q=old&tag=a&other=1");
    expect(withFilterParams(params, { search: "cpu", tags: ["hosts", "prod"] }).toString()).toBe(
      "q=cpu&other=1&tag=hosts&tag=prod",
    );
    expect(withFilterParams(params, { search: " ", tags: [] }).toString()).toBe("other=1");
    expect(params.toString()).toBe("q=old&tag=a&other=1");
  });

  it("reads back what it wrote", () => {
    const filter = { search: "cpu & mem", tags: ["a b", "c=d"] };
    expect(filterFromParams(withFilterParams(new URLSearchParams(), filter))).toEqual(filter);
  });
});

describe("what the list says", () => {
  it("says what nothing matched", () => {
    expect(describeNoMatch({ search: " cpu  ", tags: [] })).toBe("No dashboard title or tag matches “cpu”.");
    expect(describeNoMatch({ search: "", tags: ["prod"] })).toBe("No dashboard has the tag prod.");
    expect(describeNoMatch({ search: "", tags: ["a", "b", "c"] })).toBe("No dashboard has the tags a, b and c.");
    expect(describeNoMatch({ search: "cpu", tags: ["a", "b"] })).toBe("No dashboard with the tags a and b matches “cpu”.");
  });

  it("counts what is shown out of the whole list", () => {
    expect(matchCount(3, 12)).toBe("3 of 12 dashboards");
    expect(matchCount(0, 1)).toBe("0 of 1 dashboard");
  });
});
