import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { DashboardVariable } from "@/api/dashboards";
import { VariablePicker } from "./VariablePicker";

const host: DashboardVariable = { name: "host", label: "Host", type: "custom", options: ["a", "b"] };

function renderPicker(variable: DashboardVariable, value: string[], onChange = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <VariablePicker workspaceId="w1" variable={variable} value={value} onChange={onChange} />
    </QueryClientProvider>,
  );
  return onChange;
}

describe("VariablePicker", () => {
  it("shows a value from the link that is not an option as it is, selected, instead of the first option", async () => {
    const onChange = renderPicker(host, ["zzz"]);
    const select = screen.getByLabelText("Host");
    expect(select).toHaveValue("zzz");
    expect(within(select).getByRole("option", { name: "zzz (no such value)" })).toHaveProperty("selected", true);
    expect(within(select).getAllByRole("option").map((o) => o.textContent)).toEqual(["zzz (no such value)", "a", "b"]);
    // what is shown is what the panels query: nothing was changed behind the user's back
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.selectOptions(select, "b");
    expect(onChange).toHaveBeenLastCalledWith(["b"]);
  });

  it("marks unknown values of a multi-select too, and lists known values once", () => {
    renderPicker({ ...host, multi: true }, ["b", "zzz"]);
    const select = screen.getByLabelText("Host");
    expect(select).toHaveValue(["zzz", "b"]);
    expect(within(select).getAllByRole("option").map((o) => o.textContent)).toEqual(["zzz (no such value)", "a", "b"]);
  });

  it("takes the first option when a single-value variable has none", () => {
    const onChange = renderPicker(host, []);
    expect(onChange).toHaveBeenCalledWith(["a"]);
  });
});
