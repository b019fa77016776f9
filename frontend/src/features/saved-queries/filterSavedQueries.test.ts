import { describe, expect, it } from "vitest";
import type { SavedQuery } from "./api";
import { filterSavedQueries, findSavedByText, validateSavedQuery } from "./filterSavedQueries";

function saved(name: string, query: string, description = ""): SavedQuery {
  return {
    id: name,
    workspace_id: "w",
    name,
    description,
    query,
    created_by: null,
    created_at: "2026-11-21T08:00:00Z",
    updated_at: "2026-11-21T08:00:00Z",
  };
}

const list = [
  saved("mem used", "M::mem:(avg(used_percent)) BY host"),
  saved("CPU by host", "M::cpu:(avg(usage_user)) BY host", "The dashboard's top panel"),
  saved("disk", "M::disk:(max(used_percent))", "Alert when above 90"),
];

describe("filterSavedQueries", () => {
  it("matches every word in name, description or query, any case, sorted by name", () => {
    expect(filterSavedQueries(list, "").map((q) => q.name)).toEqual(["CPU by host", "disk", "mem used"]);
    expect(filterSavedQueries(list, "HOST").map((q) => q.name)).toEqual(["CPU by host", "mem used"]);
    expect(filterSavedQueries(list, "used percent").map((q) => q.name)).toEqual(["disk", "mem used"]);
    expect(filterSavedQueries(list, "alert").map((q) => q.name)).toEqual(["disk"]);
    expect(filterSavedQueries(list, "cpu disk")).toEqual([]);
  });

  it("finds the saved query holding the editor's text", () => {
    expect(findSavedByText(list, "  M::disk:(max(used_percent))\n")?.name).toBe("disk");
    expect(findSavedByText(list, "M::disk")).toBeUndefined();
  });
});

describe("validateSavedQuery", () => {
  it("names what is missing or too long", () => {
    expect(validateSavedQuery({ name: " ", description: "" }, "M::cpu")).toEqual({ name: "Give the query a name." });
    expect(validateSavedQuery({ name: "x".repeat(201), description: "d".repeat(2001) }, " ")).toEqual({
      name: "Use at most 200 characters for the name.",
      description: "Use at most 2,000 characters for the description.",
      query: "Write a query before saving it.",
    });
    expect(validateSavedQuery({ name: "ok", description: "" }, "M::cpu")).toEqual({});
  });
});
