import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/apiError";
import { DataTable, type DataTableColumn } from "./DataTable";
import { EmptyState } from "./EmptyState";

interface Host {
  name: string;
  cpu: number | null;
  self?: boolean;
}

const HOSTS: Host[] = [
  { name: "alpha", cpu: 14.5 },
  { name: "beta", cpu: null, self: true },
];

function columns(onRemove = (_: Host): void => undefined): DataTableColumn<Host>[] {
  return [
    { id: "name", header: "Host", rowHeader: true, cell: (h) => h.name },
    {
      id: "cpu",
      header: "CPU %",
      numeric: true,
      className: (h) => (h.cpu === null ? "muted" : undefined),
      title: (h) => (h.cpu === null ? "no value" : undefined),
      cell: (h) => (h.cpu === null ? "—" : h.cpu.toFixed(1)),
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      className: "actions",
      cell: (h) => (
        <button type="button" onClick={() => onRemove(h)}>
          Remove {h.name}
        </button>
      ),
    },
  ];
}

describe("DataTable", () => {
  it("is a table named by its caption, with a header per column and a row per record", () => {
    render(<DataTable caption="Hosts" columns={columns()} rows={HOSTS} rowKey={(h) => h.name} testId="hosts-table" />);
    const table = screen.getByRole("table", { name: "Hosts" });
    expect(table).toHaveClass("data-table");
    expect(table).toHaveAttribute("data-testid", "hosts-table");
    // The caption names the table for screen readers; the page's heading says it to everyone else.
    expect(table.querySelector("caption")).toHaveClass("sr-only");
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Host", "CPU %", "Actions"]);
    expect(within(table).getByRole("columnheader", { name: "Actions" }).firstElementChild).toHaveClass("sr-only");
    // The header row, then one row per record, each named by its row header.
    expect(within(table).getAllByRole("row")).toHaveLength(3);
    expect(within(table).getByRole("rowheader", { name: "alpha" })).toBeInTheDocument();
    expect(within(table).getByRole("row", { name: /^beta/ })).toBeInTheDocument();
  });

  it("aligns numeric columns, header included, and takes cell classes and titles per row", () => {
    render(<DataTable caption="Hosts" columns={columns()} rows={HOSTS} rowKey={(h) => h.name} />);
    expect(screen.getByRole("columnheader", { name: "CPU %" })).toHaveClass("num");
    const [alphaCpu, alphaActions] = within(screen.getByRole("row", { name: /^alpha/ })).getAllByRole("cell");
    expect(alphaCpu).toHaveTextContent(/^14\.5$/);
    expect(alphaCpu.className).toBe("num");
    expect(alphaCpu).not.toHaveAttribute("title");
    expect(alphaActions.className).toBe("actions");
    const [betaCpu] = within(screen.getByRole("row", { name: /^beta/ })).getAllByRole("cell");
    expect(betaCpu.className).toBe("num muted");
    expect(betaCpu).toHaveAttribute("title", "no value");
  });

  it("passes test ids and row attributes on, and the cells' own handlers work", async () => {
    const onRemove = vi.fn();
    render(
      <DataTable
        caption="Hosts"
        className="hosts-table"
        columns={columns(onRemove)}
        rows={HOSTS}
        rowKey={(h) => h.name}
        rowTestId="host-row"
        rowProps={(h, i) => ({ className: h.self ? "is-self" : undefined, "aria-current": i === 0 ? "true" : undefined })}
      />,
    );
    expect(screen.getByRole("table")).toHaveClass("data-table", "hosts-table");
    const rows = screen.getAllByTestId("host-row");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveAttribute("aria-current", "true");
    expect(rows[0]).not.toHaveClass("is-self");
    expect(rows[1]).toHaveClass("is-self");
    expect(rows[1]).not.toHaveAttribute("aria-current");
    await userEvent.click(screen.getByRole("button", { name: "Remove beta" }));
    expect(onRemove).toHaveBeenCalledWith(HOSTS[1]);
  });

  it("scrolls sideways in its own box: a keyboard-focusable region named by the caption", async () => {
    render(
      <>
        <button type="button">Before</button>
        <DataTable caption="Hosts" columns={columns()} rows={HOSTS} rowKey={(h) => h.name} />
      </>,
    );
    const region = screen.getByRole("region", { name: "Hosts" });
    expect(region).toHaveClass("data-table-scroll");
    expect(region).toContainElement(screen.getByRole("table", { name: "Hosts" }));
    // Reached with Tab, so the arrow keys can scroll a table wider than the screen.
    await userEvent.click(screen.getByRole("button", { name: "Before" }));
    await userEvent.tab();
    expect(region).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole("button", { name: "Remove alpha" })).toHaveFocus();
  });

  it("leaves no scrolling box behind when a state stands in for the table", () => {
    render(<DataTable caption="Hosts" columns={columns()} rows={[]} rowKey={(h) => h.name} loading loadingLabel="Loading hosts" />);
    expect(screen.queryByRole("region")).not.toBeInTheDocument();
  });

  it("shows a visible caption when asked", () => {
    render(<DataTable caption="Hosts" captionVisible columns={columns()} rows={HOSTS} rowKey={(h) => h.name} />);
    expect(screen.getByRole("table", { name: "Hosts" }).querySelector("caption")).not.toHaveClass("sr-only");
  });

  it("stands a named spinner in for the table while loading", () => {
    render(
      <DataTable caption="Hosts" columns={columns()} rows={[]} rowKey={(h) => h.name} loading loadingLabel="Loading hosts" />,
    );
    expect(screen.getByRole("status")).toHaveTextContent("Loading hosts");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("stands the error, in the user's words, in for the table", () => {
    render(
      <DataTable
        caption="Hosts"
        columns={columns()}
        rows={HOSTS}
        rowKey={(h) => h.name}
        error={new ApiError(404, "Workspace not found", "not_found")}
        errorTitle="Could not load the hosts"
      />,
    );
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("Could not load the hosts");
    expect(alert).toHaveTextContent("Workspace not found");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("stands the empty state in for a table without rows, and shows the bare header without one", () => {
    const { rerender } = render(
      <DataTable
        caption="Hosts"
        columns={columns()}
        rows={[]}
        rowKey={(h) => h.name}
        empty={<EmptyState title="No hosts yet" testId="hosts-empty">Start an agent.</EmptyState>}
      />,
    );
    expect(screen.getByTestId("hosts-empty")).toHaveTextContent("No hosts yetStart an agent.");
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    rerender(<DataTable caption="Hosts" columns={columns()} rows={[]} rowKey={(h) => h.name} />);
    expect(screen.getAllByRole("row")).toHaveLength(1);
    expect(screen.getAllByRole("columnheader")).toHaveLength(3);
  });
});
