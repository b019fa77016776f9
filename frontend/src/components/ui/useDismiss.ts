import { useEffect, useRef, type RefObject } from "react";

export type DismissedBy = "escape" | "outside";

/**
 * Closes something open over the page (a popover, a menu): `onDismiss` is called on Escape
 * (unless `escape` is false, for a widget that handles its own keys) and on a press outside
 * `rootRef`, which holds both the button that opened it and what it opened.
 */
export function useDismiss(
  open: boolean,
  rootRef: RefObject<HTMLElement | null>,
  onDismiss: (by: DismissedBy) => void,
  { escape = true }: { escape?: boolean } = {},
): void {
  const latest = useRef(onDismiss);
  latest.current = onDismiss;

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent): void => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) latest.current("outside");
    };
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      latest.current("escape");
    };
    document.addEventListener("mousedown", onDown);
    if (escape) document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, rootRef, escape]);
}
