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

describe("renderMarkdown with dashboard variables", () => {
  function withVars(text: string, variables: Record<string, string[]>): HTMLElement {
    const div = document.createElement("div");
    div.innerHTML = renderMarkdown(text, variables);
    return div;
  }

  it("fills values in as text: a crafted value plants no link, image or markup", () => {
    const crafted = [
      "[Reset your password](https://evil.example/login)",
      "![](https://tracker.example/pixel.gif)",
      "<img src=https://tracker.example/p.gif>",
      "https://evil.example/autolink",
      "**bold** `code` <b>html</b>",
    ];
    const d = withVars("Host: $host\n\n- ${host}", { host: crafted });
    expect(d.querySelector("a, img, b, strong, code")).toBeNull();
    expect(d.textContent).toContain(`Host: ${crafted.join(", ")}`);
    expect(d.querySelectorAll("li")).toHaveLength(1);
  });

  it("keeps the author's links and images, with values encoded into their addresses", () => {
    const d = withVars(
      "[runbook of $host](https://wiki.example.com/runbooks/$host) ![graph](/img/$host.png) [raw]($host)",
      { host: ["web-1/../../admin?x=1#y", "https://evil.example"] },
    );
    const [runbook, raw] = [...d.querySelectorAll("a")];
    expect(runbook.textContent).toBe("runbook of web-1/../../admin?x=1#y, https://evil.example");
    const href = runbook.getAttribute("href") ?? "";
    expect(new URL(href).origin).toBe("https://wiki.example.com");
    expect(href).toBe(
      "https://wiki.example.com/runbooks/web-1%2F..%2F..%2Fadmin%3Fx%3D1%23y%2C%20https%3A%2F%2Fevil.example",
    );
    // a link the author wrote as a bare variable stays on this site, whatever the value
    expect(new URL(raw.getAttribute("href") ?? "", window.location.href).origin).toBe(window.location.origin);
    expect(raw.hasAttribute("target")).toBe(false);
    expect(d.querySelector("img")?.getAttribute("src")).toMatch(/^\/img\/web-1%2F/);
  });

  it("reads several values as a list, none as All, and leaves unknown names alone", () => {
    const d = withVars("Hosts: $host in ${dc}; $nope, $all", { host: ["a.b", "c"], dc: ["eu"], all: [] });
    expect(d.textContent?.trim()).toBe("Hosts: a.b, c in eu; $nope, All");
  });

  it("cannot be tricked by the placeholder written in the text", () => {
    const d = withVars("vgvar000000n0e $host", { host: ["x"] });
    expect(d.textContent?.trim()).toBe("vgvar000000n0e x");
  });
});
