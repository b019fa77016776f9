import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { DqlResult } from "@/lib/dql/dql";
import { formatCellNumber, ResultTable } from "./ResultTable";

const result: DqlResult = {
  series: [
    {
      name: "cpu",
      tags: { host: "a" },
      columns: ["time", "usage_user", "count"],
      values: [[Date.UTC(2026, 0, 1), 16.072000000000003, 12345678]],
    },
  ],
};

describe("ResultTable", () => {
  it("shows numbers without floating-point noise", () => {
    render(<ResultTable result={result} />);
    const cells = within(screen.getByTestId("result-table")).getAllByRole("cell");
    expect(cells.map((c) => c.textContent).slice(1)).toEqual(["16.072", "12345678"]);
  });

  it("scrolls in a region the keyboard reaches, named by its label", () => {
    render(<ResultTable result={result} label="CPU table" />);
    const region = screen.getByRole("region", { name: "CPU table" });
    expect(region).toBe(screen.getByTestId("result-table"));
    expect(region).toHaveAttribute("tabindex", "0");
  });

  it("shows numbers in the chosen unit", () => {
    render(<ResultTable result={result} unit="percent" />);
    const cells = within(screen.getByTestId("result-table")).getAllByRole("cell");
    expect(cells[1]).toHaveTextContent("16.1%");
  });
});

describe("formatCellNumber", () => {
  it.each([
    [16.072000000000003, "16.072"],
    [0.1 + 0.2, "0.3"],
    [0.000123456, "0.0001235"],
    [-2.5, "-2.5"],
    [42, "42"],
  ])("%d → %s", (v, s) => expect(formatCellNumber(v)).toBe(s));
});
