import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ResultLimitNotice } from "./ResultLimitNotice";

describe("ResultLimitNotice", () => {
  it("says which limit cut the result and what to add to the query", () => {
    render(
      <ResultLimitNotice
        cut={{
          rows: { limit: 1000, series: 3, explicit: false },
          series: { shown: 20, slimit: 20, explicit: false },
        }}
      />,
    );
    const notice = screen.getByTestId("result-limit-notice");
    expect(notice).toHaveTextContent("3 series reached the default limit of 1,000 rows per series");
    expect(notice).toHaveTextContent("[30d::1h]");
    expect(notice).toHaveTextContent("The result stopped at 20 series (the default SLIMIT)");
    expect(notice).toHaveTextContent("Add SLIMIT 100");
  });

  it("names the query it is about when there are several", () => {
    render(<ResultLimitNotice cut={{ series: { shown: 5, slimit: 5, explicit: true } }} query="B" />);
    expect(screen.getByTestId("result-limit-notice")).toHaveTextContent("Not everything of query B is shown");
    expect(screen.getByTestId("result-limit-notice")).toHaveTextContent("Raise it, e.g. SLIMIT 100");
  });

  it("shows nothing for a whole result", () => {
    const { container } = render(<ResultLimitNotice cut={{}} />);
    expect(container).toBeEmptyDOMElement();
  });
});
