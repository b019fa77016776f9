import type { ReactElement, ReactNode } from "react";
import { Button } from "./Button";

export interface PagerProps {
  /** 1-based. */
  page: number;
  pages: number;
  onPage: (page: number) => void;
  /** The navigation's accessible name ("Pages of runs"). */
  label?: string;
  /** What the pages hold ("57 events", "Showing 21–40 of 57"), before the buttons; with it the
   * pager stays for a single page, as that line alone. */
  summary?: ReactNode;
  /** A list newest first: the buttons say Newer and Older. */
  newestFirst?: boolean;
}

/** The one pager under every paged list: an optional summary, then Previous / "Page n of m" /
 * Next (Newer / Older for lists newest first); the buttons only when there are several pages. */
export function Pager({ page, pages, onPage, label = "Pages", summary, newestFirst = false }: PagerProps): ReactElement | null {
  if (pages <= 1 && summary === undefined) return null;
  const [back, forward] = newestFirst ? ["Newer", "Older"] : ["Previous", "Next"];
  return (
    <nav className="pager row" aria-label={label}>
      {summary !== undefined ? (
        <span className="muted small" aria-live="polite">
          {summary}
        </span>
      ) : null}
      {pages > 1 ? (
        <>
          <Button size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {back}
          </Button>
          <span className="muted small">
            Page {page} of {pages}
          </span>
          <Button size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            {forward}
          </Button>
        </>
      ) : null}
    </nav>
  );
}
