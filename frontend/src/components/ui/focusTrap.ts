import type { KeyboardEvent } from "react";

const FOCUSABLE = [
  "button:not(:disabled)",
  "input:not(:disabled)",
  "select:not(:disabled)",
  "textarea:not(:disabled)",
  "a[href]",
].join(", ");

/** What Tab reaches inside `container`, in document order. */
export function focusableIn(container: HTMLElement): HTMLElement[] {
  // Sorted: not every engine returns a selector list's matches in document order.
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).sort((a, b) =>
    a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
  );
}

/**
 * Keeps Tab inside a modal: from the first focusable element back, or from the last one on
 * (or from the dialog itself), focus wraps around. Call it from the dialog's `onKeyDown`.
 */
export function wrapTab(e: KeyboardEvent<HTMLElement>, container: HTMLElement | null): void {
  if (e.key !== "Tab" || !container) return;
  const focusable = focusableIn(container);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const at = focusable.indexOf(document.activeElement as HTMLElement);
  if (e.shiftKey && at <= 0) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (at === -1 || at === focusable.length - 1)) {
    e.preventDefault();
    first.focus();
  }
}
