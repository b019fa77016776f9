import { describe, expect, it } from "vitest";
import { exportFileName, importTitle, parseExportDocument, grafanaTitle, isGrafanaDashboard } from "./exportFile";

describe("exportFileName", () => {
  it("slugs the title", () => {
    expect(exportFileName("Host overview")).toBe("host-overview.dashboard.json");
    expect(exportFileName("Réseau / I/O (prod)")).toBe("reseau-i-o-prod.dashboard.json");
    expect(exportFileName("%%%")).toBe("dashboard.dashboard.json");
  });
});

describe("parseExportDocument", () => {
  it("accepts a JSON object and leaves its validation to the backend", () => {
    expect(parseExportDocument('{"title": "x", "spec": {}}')).toEqual({ doc: { title: "x", spec: {} } });
  });

  it("names what is wrong with what is not a JSON object", () => {
    expect(parseExportDocument("  ")).toEqual({ error: expect.stringMatching(/Paste an exported dashboard/) });
    expect(parseExportDocument("{title")).toEqual({ error: expect.stringMatching(/^This is not valid JSON: /) });
    expect(parseExportDocument("[1]")).toEqual({ error: expect.stringMatching(/must be a JSON object/) });
  });
});

describe("importTitle", () => {
  it("keeps a free title and marks one the workspace already has as imported", () => {
    expect(importTitle("Hosts", ["Host overview"])).toBe("Hosts");
    expect(importTitle("Host overview", ["Host overview"])).toBe("Host overview (imported)");
    expect(importTitle(" host OVERVIEW ", ["Host overview"])).toBe("host OVERVIEW (imported)");
    expect(importTitle("Host overview", ["Host overview", "Host overview (imported)"])).toBe("Host overview (imported 2)");
    expect(importTitle("x".repeat(200), ["x".repeat(200)])).toBe(`${"x".repeat(189)} (imported)`);
  });
});

describe("Grafana documents", () => {
  it("tells a Grafana dashboard from a Vigil export", () => {
    expect(isGrafanaDashboard({ title: "Node", panels: [] })).toBe(true);
    expect(isGrafanaDashboard({ __inputs: [], title: "x" })).toBe(true);
    expect(isGrafanaDashboard({ dashboard: { title: "Node", panels: [] }, meta: {} })).toBe(true);
    expect(isGrafanaDashboard({ title: "old", rows: [] })).toBe(true);
    expect(isGrafanaDashboard({ format: "vigil.dashboard", title: "x", spec: {} })).toBe(false);
    expect(isGrafanaDashboard({ title: "x", spec: { panels: [] } })).toBe(false);
    expect(isGrafanaDashboard({ title: "x" })).toBe(false);
  });
  it("reads the title of the document or of its envelope", () => {
    expect(grafanaTitle({ title: " Node ", panels: [] })).toBe("Node");
    expect(grafanaTitle({ dashboard: { title: "Go", panels: [] } })).toBe("Go");
    expect(grafanaTitle({ panels: [] })).toBe("");
  });
});
