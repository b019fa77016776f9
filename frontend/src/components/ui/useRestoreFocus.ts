import { useEffect } from "react";

/** Gives focus back to whatever had it (the button that opened a dialog) when the dialog closes. */
export function useRestoreFocus(): void {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);
}
