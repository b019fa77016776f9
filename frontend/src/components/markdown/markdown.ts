import createDOMPurify from "dompurify";
import { Marked, type Tokens } from "marked";
import { variableText } from "@/lib/variableText";

/**
 * Markdown as the text panel draws it: CommonMark with GitHub's tables, strikethrough and
 * autolinks. Headings start at level 3, under the dashboard's title (h1) and the panel's
 * (h2), so a screen reader's outline stays in order; `#` is the largest a panel can have.
 */
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    heading({ tokens, depth }: Tokens.Heading) {
      const level = Math.min(6, depth + 2);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
  },
});

/**
 * What may stay of the HTML: DOMPurify's HTML profile (no script, no event handler, no
 * `javascript:` URL), without forms and without styles, which could draw over the page.
 */
const SANITIZE = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "option"],
  FORBID_ATTR: ["style", "class", "id"],
};

const purify = createDOMPurify(window);

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
const URL_ATTRIBUTES = new Set(["href", "src"]);

/**
 * `text` as sanitised HTML, with the dashboard's variables (`$host`, `${host}`) filled in.
 * Links to other sites open in a new tab, without a referrer.
 *
 * Variable values come from the page's URL (`var-host=…`) and from ingested tag values:
 * anyone can craft them, so they never become markup. The text is rendered with a placeholder
 * in place of each variable (letters and digits only, so Markdown leaves it alone) and the
 * values go in afterwards, as plain text into the text, URL-encoded into the links and
 * images the author wrote. A value can therefore neither add a link or an image nor change
 * where an author's link points: links and images exist only where the author wrote them.
 */
export function renderMarkdown(text: string, variables: Record<string, readonly string[]> = {}): string {
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => (b % 36).toString(36)).join("");
  const values: string[] = [];
  const templated = text.replace(VARIABLE, (whole, braced?: string, bare?: string) => {
    const v = variables[(braced ?? bare) as string];
    if (!v) return whole;
    values.push(variableText(v));
    return `vgvar${nonce}n${values.length - 1}e`;
  });
  const fragment = purify.sanitize(marked.parse(templated) as string, { ...SANITIZE, RETURN_DOM_FRAGMENT: true });
  if (values.length > 0) fillVariables(fragment, new RegExp(`vgvar${nonce}n(\\d+)e`, "g"), values);
  const out = document.createElement("div");
  out.append(fragment);
  return out.innerHTML;
}

function fillVariables(root: Node, placeholder: RegExp, values: readonly string[]): void {
  const value = (n: string): string => values[Number(n)] ?? "";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node instanceof Text) {
      if (placeholder.test(node.data)) texts.push(node);
      placeholder.lastIndex = 0;
      continue;
    }
    const element = node as Element;
    for (const attr of Array.from(element.attributes)) {
      if (!placeholder.test(attr.value)) continue;
      placeholder.lastIndex = 0;
      const encode = URL_ATTRIBUTES.has(attr.name) ? encodeURIComponent : (v: string) => v;
      element.setAttribute(attr.name, attr.value.replace(placeholder, (_, n: string) => encode(value(n))));
    }
  }
  // as text nodes: whatever a value holds is shown as typed, never parsed
  for (const node of texts) node.data = node.data.replace(placeholder, (_, n: string) => value(n));
}

// Every link that leaves the app opens in a new tab, so the dashboard stays where it was.
purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName !== "A" || !node.hasAttribute("href")) return;
  const href = node.getAttribute("href") ?? "";
  let url: URL;
  try {
    url = new URL(href, window.location.href);
  } catch {
    return;
  }
  if (url.origin === window.location.origin) return;
  node.setAttribute("target", "_blank");
  node.setAttribute("rel", "noopener noreferrer");
});
