import { render } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { documentTitle, useDocumentTitle } from "./useDocumentTitle";

function Page({ parts }: { parts: (string | undefined)[] | null }): null {
  useDocumentTitle(parts);
  return null;
}

describe("documentTitle", () => {
  it("joins the parts, most specific first, and ends with the app's name", () => {
    expect(documentTitle(["Host overview", "Dashboards", "Acme"])).toBe("Host overview · Dashboards · Acme · Vigil");
    expect(documentTitle(["Sign in"])).toBe("Sign in · Vigil");
    expect(documentTitle([])).toBe("Vigil");
  });

  it("leaves out empty parts, such as a name not loaded yet", () => {
    expect(documentTitle([undefined, "Dashboards", " ", null, false, "Acme"])).toBe("Dashboards · Acme · Vigil");
  });
});

describe("useDocumentTitle", () => {
  beforeEach(() => {
    document.title = "Vigil";
  });

  it("titles the window while the page is shown and puts the previous title back when it goes", () => {
    const { rerender, unmount } = render(<Page parts={["Explore", "Acme"]} />);
    expect(document.title).toBe("Explore · Acme · Vigil");
    rerender(<Page parts={["Members", "Settings", "Acme"]} />);
    expect(document.title).toBe("Members · Settings · Acme · Vigil");
    unmount();
    expect(document.title).toBe("Vigil");
  });

  it("goes from one page's title to the next when one page replaces another", () => {
    const { rerender } = render(<Page key="a" parts={["Explore", "Acme"]} />);
    rerender(<Page key="b" parts={["Dashboards", "Acme"]} />);
    expect(document.title).toBe("Dashboards · Acme · Vigil");
  });

  it("does not put back an old title over one another page set meanwhile", () => {
    const { unmount } = render(<Page parts={["Explore", "Acme"]} />);
    document.title = "Something else";
    unmount();
    expect(document.title).toBe("Something else");
  });

  it("leaves the title alone when given null", () => {
    document.title = "Explore · Acme · Vigil";
    const { unmount } = render(<Page parts={null} />);
    expect(document.title).toBe("Explore · Acme · Vigil");
    unmount();
    expect(document.title).toBe("Explore · Acme · Vigil");
  });
});
