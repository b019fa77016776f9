import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState, type ReactElement } from "react";
import { describe, expect, it, vi } from "vitest";
import { MAX_QUERIES, type QueryItem } from "@/lib/dql/queryRefs";
import { QueriesEditor } from "./QueriesEditor";

function Harness({ initial }: { initial: QueryItem[] }): ReactElement {
  const [queries, setQueries] = useState(initial);
  return (
    <QueriesEditor
      queries={queries}
      onChange={(i, patch) => setQueries((qs) => qs.map((q, j) => (j === i ? { ...q, ...patch } : q)))}
      onAdd={(q) => setQueries((qs) => [...qs, q])}
      onRemove={(i) => setQueries((qs) => qs.filter((_, j) => j !== i))}
      onRun={() => {}}
      completion={{ dql: () => null, promql: () => null }}
      editorLabel={(ref) => (ref ? `Query ${ref}` : "DQL query")}
      below={(ref) => (ref === "B" ? <p>about B</p> : null)}
    />
  );
}

const three: QueryItem[] = ["A", "B", "C"].map((ref_id) => ({ ref_id, query: `M::${ref_id}:(v)` }));

describe("QueriesEditor", () => {
  const user = userEvent.setup({ delay: null });

  it("names each query's controls by its reference, and shows what is said about it under it", () => {
    render(<Harness initial={three} />);
    expect(screen.getByLabelText("Query B")).toHaveTextContent("M::B:(v)");
    expect(screen.getByRole("checkbox", { name: "Hide query B" })).not.toBeChecked();
    expect(screen.getByRole("button", { name: "Remove query B" })).toBeInTheDocument();
    expect(screen.getByLabelText("Legend of query C")).toHaveValue("");
    expect(screen.getByText("about B")).toBeInTheDocument();
  });

  it("moves the focus to the editor that took the removed query's place, or the one before", async () => {
    render(<Harness initial={three} />);
    await user.click(screen.getByRole("button", { name: "Remove query A" }));
    await vi.waitFor(() => expect(screen.getByLabelText("Query B")).toHaveFocus());
    await user.click(screen.getByRole("button", { name: "Remove query C" }));
    // alone again: no reference, no Remove
    await vi.waitFor(() => expect(screen.getByLabelText("DQL query")).toHaveFocus());
    expect(screen.queryByRole("button", { name: /^Remove/ })).not.toBeInTheDocument();
  });

  it("adds the next free reference with the focus in its editor, up to the limit", async () => {
    render(<Harness initial={[three[0], three[2]]} />);
    await user.click(screen.getByRole("button", { name: "Add query" }));
    await vi.waitFor(() => expect(screen.getByLabelText("Query B")).toHaveFocus());
    for (let n = 3; n < MAX_QUERIES; n += 1) await user.click(screen.getByRole("button", { name: "Add query" }));
    expect(screen.getAllByTestId("query-row")).toHaveLength(MAX_QUERIES);
    expect(screen.getByRole("button", { name: "Add query" })).toBeDisabled();
  });
});
