import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Alert } from "./Alert";

describe("Alert", () => {
  it("announces an error with its title in bold", () => {
    render(<Alert title="Export failed">The server did not answer.</Alert>);
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("Export failedThe server did not answer.");
    expect(screen.queryByRole("heading")).not.toBeInTheDocument();
  });

  it("makes the title the page's heading when the message is all the page shows", () => {
    render(
      <Alert title="Workspace not found" titleAs="h1">
        Pick another one above.
      </Alert>,
    );
    expect(screen.getByRole("heading", { level: 1, name: "Workspace not found" })).toBeInTheDocument();
  });

  it("says information politely", () => {
    render(<Alert tone="info">Read-only.</Alert>);
    expect(screen.getByRole("status")).toHaveTextContent("Read-only.");
  });
});
