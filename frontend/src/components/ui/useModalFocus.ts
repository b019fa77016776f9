import { useCallback, useEffect, type KeyboardEvent, type RefObject } from "react";
import { focusableIn } from "./focusTrap";

/** What else Tab stops at: the query editor (contenteditable) and elements given a tab index. */
const MORE_TAB_STOPS = '[contenteditable="true"], [tabindex]:not([tabindex="-1"])';

/** The elements Tab reaches inside `container`, in document order. */
export function tabStopsIn(container: HTMLElement): HTMLElement[] {
  const all = new Set([...focusableIn(container), ...container.querySelectorAll<HTMLElement>(MORE_TAB_STOPS)]);
  return [...all]
    .filter((el) => el.tabIndex >= 0 && !el.closest("[hidden], [inert]"))
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

/**
 * Keeps focus inside a full-screen modal (`aria-modal`) rendered in the page: Tab from its last
 * stop goes to its first and Shift+Tab from its first to its last, and focus that lands behind
 * it any other way is brought back. Dialogs opened above it (a confirmation) keep their focus.
 * Returns the handler for the modal's `onKeyDown`; giving focus back to the opener on close is
 * `useRestoreFocus`'s part.
 */
export function useModalFocus(ref: RefObject<HTMLElement | null>): (e: KeyboardEvent<HTMLElement>) => void {
  useEffect(() => {
    const onFocusIn = (e: FocusEvent): void => {
      const modal = ref.current;
      const target = e.target;
      if (!modal || !(target instanceof HTMLElement) || modal.contains(target)) return;
      if (target.closest('[aria-modal="true"]')) return;
      const back = e.relatedTarget instanceof HTMLElement && modal.contains(e.relatedTarget) ? e.relatedTarget : undefined;
      (back ?? tabStopsIn(modal)[0] ?? modal).focus();
    };
    document.addEventListener("focusin", onFocusIn);
    return () => document.removeEventListener("focusin", onFocusIn);
  }, [ref]);

  return useCallback(
    (e: KeyboardEvent<HTMLElement>) => {
      const modal = ref.current;
      // the query editor uses Tab to indent (Escape, then Tab, leaves it)
      if (e.key !== "Tab" || e.defaultPrevented || !modal || !(e.target instanceof Node) || !modal.contains(e.target)) return;
      const stops = tabStopsIn(modal);
      if (stops.length === 0) return;
      const active = document.activeElement;
      const at = stops.findIndex((el) => el === active || el.contains(active));
      if (e.shiftKey && at <= 0) {
        e.preventDefault();
        stops[stops.length - 1].focus();
      } else if (!e.shiftKey && (at === -1 || at === stops.length - 1)) {
        e.preventDefault();
        stops[0].focus();
      }
    },
    [ref],
  );
}
