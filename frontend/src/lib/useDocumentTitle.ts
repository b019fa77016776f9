import { useEffect } from "react";

/** What every window title ends with, and the whole title where no page sets one. */
export const APP_TITLE = "Vigil";

/**
 * The window title of a page: its parts from the most specific to the least, then the app,
 * e.g. `["Host overview", "Dashboards", "Acme"]` → "Host overview · Dashboards · Acme · Vigil".
 * Empty parts are left out.
 */
export function documentTitle(parts: readonly (string | null | undefined | false)[]): string {
  const named = parts.map((p) => (typeof p === "string" ? p.trim() : "")).filter((p) => p !== "");
  return [...named, APP_TITLE].join(" · ");
}

/**
 * Sets the window title (tab, history, bookmarks, what screen readers announce on
 * navigation) while the calling page is shown, and puts back the one before when it goes
 * (unless another page has set its own meanwhile).
 * `null` leaves the title to others: a layout that only titles the states where it shows no
 * page of its own.
 */
export function useDocumentTitle(parts: readonly (string | null | undefined | false)[] | null): void {
  const title = parts === null ? null : documentTitle(parts);
  useEffect(() => {
    if (title === null) return;
    const previous = document.title;
    document.title = title;
    return () => {
      // unless another page has titled the window since
      if (document.title === title) document.title = previous;
    };
  }, [title]);
}
