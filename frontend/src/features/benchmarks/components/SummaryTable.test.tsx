import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { BenchmarkRunDocument } from "../api";
import { figureRows, subjectsOf } from "../report";
import runJson from "../testdata/run.json?raw";
import { SummaryTable } from "./SummaryTable";

const run = JSON.parse(runJson) as BenchmarkRunDocument;
const writeCost = run.scenarios!.find((s) => s.scenario === "write-cost")!;

describe("SummaryTable", () => {
  it("shows each system's figure with its ratio to the reference, marked better or worse", () => {
    render(<SummaryTable rows={figureRows(writeCost, "cpu_percent")} subjects={subjectsOf(writeCost)} reference="vigil-storage" />);
    const table = screen.getByRole("table");
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Metric",
      "vigil",
      "vigil-storage (reference)",
      "victoriametrics",
      "influxdb",
      "postgres",
    ]);
    const row = within(table).getByRole("row", { name: /cpu percent/ });
    const cells = within(row).getAllByRole("cell");
    // vigil adds its four processes up: 9.98 % against vigil-storage's 4.02 %
    expect(cells[0]).toHaveTextContent("9.98 %2.48×");
    expect(cells[0].querySelector(".ratio-worse")).not.toBeNull();
    expect(cells[0].title).toContain("vigil/storage: 7.41 %");
    expect(cells[1]).toHaveTextContent(/^4\.02 %$/);
    expect(cells[3]).toHaveTextContent("1.61 %0.40×");
    expect(cells[3].querySelector(".ratio-better")).not.toBeNull();
  });

  it("follows the chosen reference", () => {
    render(<SummaryTable rows={figureRows(writeCost, "cpu_percent")} subjects={subjectsOf(writeCost)} reference="influxdb" />);
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toContain("influxdb (reference)");
    expect(within(screen.getByRole("row", { name: /cpu percent/ })).getAllByRole("cell")[1]).toHaveTextContent("4.02 %2.50×");
  });
});
