import createDOMPurify from "dompurify";
import { Marked, type Tokens } from "marked";

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

/** `text` as sanitised HTML. Links to other sites open in a new tab, without a referrer. */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text) as string;
  return purify.sanitize(html, SANITIZE);
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
