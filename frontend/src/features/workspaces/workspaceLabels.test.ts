import { describe, expect, it } from "vitest";
import { disambiguators } from "./workspaceLabels";

const ws = (id: string, name: string): { id: string; name: string } => ({ id, name });

describe("disambiguators", () => {
  it("gives none when every name is its own", () => {
    const result = disambiguators([
      ws("3f2a9c1b-0000-4000-8000-000000000001", "Production"),
      ws("7c41d0e2-0000-4000-8000-000000000002", "Staging"),
    ]);
    expect(result.size).toBe(0);
  });

  it("gives the first 8 characters of the id to each workspace of a shared name, and only to them", () => {
    const result = disambiguators([
      ws("3f2a9c1b-0000-4000-8000-000000000001", "Production"),
      ws("7c41d0e2-0000-4000-8000-000000000002", "Staging"),
      ws("a09be77f-0000-4000-8000-000000000003", "Production"),
    ]);
    expect(Object.fromEntries(result)).toEqual({
      "3f2a9c1b-0000-4000-8000-000000000001": "3f2a9c1b",
      "a09be77f-0000-4000-8000-000000000003": "a09be77f",
    });
  });

  it("treats names that differ only in case or surrounding spaces as the same", () => {
    const result = disambiguators([
      ws("11111111-0000-4000-8000-000000000001", "Acme"),
      ws("22222222-0000-4000-8000-000000000002", " acme "),
    ]);
    expect([...result.values()]).toEqual(["11111111", "22222222"]);
  });

  it("takes more of the id when two ids start with the same 8 characters", () => {
    const result = disambiguators([
      ws("3f2a9c1b-aa00-4000-8000-000000000001", "Acme"),
      ws("3f2a9c1b-ab00-4000-8000-000000000002", "Acme"),
      ws("9d8e7f6a-0000-4000-8000-000000000003", "Acme"),
    ]);
    expect([...result.values()]).toEqual(["3f2a9c1b-aa", "3f2a9c1b-ab", "9d8e7f6a-00"]);
  });

  it("handles an empty list and a workspace listed twice", () => {
    expect(disambiguators([]).size).toBe(0);
    const id = "3f2a9c1b-0000-4000-8000-000000000001";
    expect(disambiguators([ws(id, "Acme"), ws(id, "Acme")]).size).toBe(0);
  });
});
