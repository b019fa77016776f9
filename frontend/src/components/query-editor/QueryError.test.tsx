import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/apiError";
import { QueryError, withoutPosition } from "./QueryError";

describe("QueryError", () => {
  it("says in plain words that the metrics store was not reached, with the detail aside and a retry", async () => {
    const onRetry = vi.fn();
    const err = new ApiError(
      502,
      "vigil-storage is unreachable: [Errno 111] Connection refused",
      "storage_unavailable",
    );
    render(<QueryError error={err} query="M::cpu:(usage_user)" onRetry={onRetry} />);
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("The metrics store could not be reached");
    expect(alert).toHaveTextContent("Try again shortly");
    expect(screen.getByTestId("query-error-detail")).toHaveTextContent(
      "vigil-storage is unreachable: [Errno 111] Connection refused (storage_unavailable)",
    );
    expect(screen.getByTestId("query-error-detail")).toHaveClass("small");
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it("treats a failed request as unreachable too", () => {
    render(<QueryError error={new TypeError("Failed to fetch")} query="q" onRetry={vi.fn()} />);
    expect(screen.getByRole("alert")).toHaveTextContent("The metrics store could not be reached");
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });

  it("prints the position of a DQL error once, and offers no retry for it", () => {
    const query = "M::cpu:(avg(usage_user))\n[15m::1m]\nBY host }";
    const start = query.indexOf("}");
    const err = new ApiError(400, "line 3:9: unexpected '}'", "dql.parse_error", { start, end: start + 1 });
    render(<QueryError error={err} query={query} onRetry={vi.fn()} />);
    expect(screen.getByTestId("query-error-position")).toHaveTextContent("line 3, column 9");
    const text = screen.getByRole("alert").textContent ?? "";
    expect(text).toContain("line 3, column 9: unexpected '}'");
    expect(text).not.toContain("3:9");
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
  });
});

describe("withoutPosition", () => {
  it.each([
    ["line 1:44: unexpected '}'", "unexpected '}'"],
    ["line 2, column 3: bad", "bad"],
    ["percentile 101 is outside [0, 100]", "percentile 101 is outside [0, 100]"],
  ])("%s → %s", (message, text) => expect(withoutPosition(message)).toBe(text));
});
