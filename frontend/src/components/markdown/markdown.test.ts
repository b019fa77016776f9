import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown";

function dom(text: string): HTMLElement {
  const div = document.createElement("div");
  div.innerHTML = renderMarkdown(text);
  return div;
}

describe("renderMarkdown", () => {
  it("draws CommonMark with GitHub's tables, headings from level 3", () => {
    const d = dom("# Runbook\n\n## Steps\n\n- **restart** the `agent`\n- ~~page~~\n\n| host | dc |\n|---|---|\n| web-1 | eu |");
    expect(d.querySelector("h3")?.textContent).toBe("Runbook");
    expect(d.querySelector("h4")?.textContent).toBe("Steps");
    expect(d.querySelector("h1, h2")).toBeNull();
    expect(d.querySelector("li strong")?.textContent).toBe("restart");
    expect(d.querySelector("code")?.textContent).toBe("agent");
    expect(d.querySelector("del")?.textContent).toBe("page");
    expect([...d.querySelectorAll("td")].map((c) => c.textContent)).toEqual(["web-1", "eu"]);
  });

  it("removes scripts, event handlers, javascript: links, styles and forms", () => {
    const d = dom(
      [
        "<script>alert(1)</script>",
        '<img src="x.png" onerror="alert(2)" alt="logo">',
        "[click](javascript:alert(3))",
        '<a href="javascript:alert(4)">raw</a>',
        '<div style="position:fixed;inset:0">cover</div>',
        "<style>body{display:none}</style>",
        '<form action="/x"><input name="password"></form>',
        '<iframe src="https://example.com"></iframe>',
      ].join("\n\n"),
    );
    const html = d.innerHTML;
    expect(d.querySelector("script, style, form, input, iframe")).toBeNull();
    expect(html).not.toMatch(/onerror|javascript:|style=/i);
    expect(d.querySelector("img")?.getAttribute("alt")).toBe("logo");
    expect(d.textContent).toContain("cover");
  });

  it("opens links to other sites in a new tab without a referrer, the app's own in place", () => {
    const d = dom("[wiki](https://wiki.example.com/runbook) and [hosts](/w/1/dashboards?tag=hosts)");
    const [wiki, hosts] = [...d.querySelectorAll("a")];
    expect(wiki.getAttribute("target")).toBe("_blank");
    expect(wiki.getAttribute("rel")).toBe("noopener noreferrer");
    expect(hosts.getAttribute("href")).toBe("/w/1/dashboards?tag=hosts");
    expect(hosts.hasAttribute("target")).toBe(false);
  });

  it("keeps a target the text sets out of links to the app", () => {
    const d = dom('<a href="/w/1" target="_top">app</a>');
    expect(d.querySelector("a")?.hasAttribute("target")).toBe(false);
  });
});
