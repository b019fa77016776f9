import { describe, expect, it } from "vitest";
import type { BenchmarkRunDocument } from "./api";
import { labelsText, toCsv, toMarkdown } from "./exportRun";
import expectedCsv from "./testdata/run.csv?raw";
import runJson from "./testdata/run.json?raw";
import expectedMd from "./testdata/run.md?raw";

// testdata/run.json is a real small-mode result document (trimmed); run.csv and run.md are
// what `vigil-bench export --format csv|md testdata/run.json` printed for it.
const run = JSON.parse(runJson) as BenchmarkRunDocument;

describe("toCsv", () => {
  it("writes the same text as vigil-bench export --format csv", () => {
    expect(toCsv(run)).toBe(expectedCsv);
  });

  it("quotes fields that need it, as Python's csv module does", () => {
    const doc = structuredClone(run);
    const sc = doc.scenarios![0];
    sc.measurements = [{ system: "a,b", metric: 'say "hi"', value: 1, unit: "%", labels: {}, repetitions: [] }];
    doc.scenarios = [sc];
    expect(toCsv(doc).split("\n")[1]).toBe(`small-all-final,write-cost,small,"a,b","say ""hi""",1.0,%,,,,true`);
  });
});

describe("toMarkdown", () => {
  it("writes the same text as vigil-bench export --format md", () => {
    // JSON cannot tell 60 from 60.0: a whole-number float *parameter* prints as an int here.
    // Everything else, including float figures and summaries, is character for character.
    const expected = expectedMd.replace("`query_timeout_s=60.0`", "`query_timeout_s=60`");
    expect(toMarkdown(run)).toBe(expected);
  });

  it("marks invalid scenarios, unavailable systems and failed checks", () => {
    const doc = structuredClone(run);
    const sc = doc.scenarios![1];
    sc.valid = false;
    sc.systems = [{ id: "influxdb", available: false, reason: "influxd | not built" }];
    sc.checks = [{ question: "raw-1h", ok: false, systems: ["a", "b"], detail: "values differ" }];
    doc.scenarios = [sc];
    const md = toMarkdown(doc);
    expect(md).toContain("**Invalid: the systems' answers or runs did not agree.**");
    expect(md).toContain("\n`influxdb` unavailable: influxd \\| not built");
    expect(md).toContain("- **FAILED** — raw-1h: values differ");
  });
});

describe("labelsText", () => {
  it("sorts by key", () => {
    expect(labelsText({ window: "1h", language: "DQL" })).toBe("language=DQL window=1h");
    expect(labelsText(undefined)).toBe("");
  });
});
