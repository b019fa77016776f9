import type { ReactElement } from "react";
import { Button } from "./Button";

export interface PagerProps {
  /** 1-based. */
  page: number;
  pages: number;
  onPage: (page: number) => void;
}

/** Previous / "Page n of m" / Next under a paged table; nothing when there is one page. */
export function Pager({ page, pages, onPage }: PagerProps): ReactElement | null {
  if (pages <= 1) return null;
  return (
    <div className="pager row">
      <Button size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="muted small">
        Page {page} of {pages}
      </span>
      <Button size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </div>
  );
}
