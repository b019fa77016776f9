import { useState, type ReactElement } from "react";
import { Button } from "@/components/ui/Button";

export interface CopyButtonProps {
  text: string;
  /** Accessible name, e.g. "Copy key". */
  label: string;
}

/**
 * Copies `text` to the clipboard and says so; tells the user to copy by hand when the browser
 * refuses. The outcome is announced through a polite live region: the button's own "Copied" is
 * not heard, since its accessible name is `label`.
 */
export function CopyButton({ text, label }: CopyButtonProps): ReactElement {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const onClick = (): void => {
    // Empty the live region first, so copying again is announced again.
    setState("idle");
    const clip = typeof navigator !== "undefined" ? navigator.clipboard : undefined;
    if (!clip) {
      setState("failed");
      return;
    }
    clip.writeText(text).then(
      () => setState("copied"),
      () => setState("failed"),
    );
  };
  return (
    <>
      <Button size="sm" onClick={onClick} aria-label={label}>
        {state === "copied" ? "Copied" : "Copy"}
      </Button>
      <span role="status" aria-live="polite" className="muted small">
        {state === "failed" ? "The browser did not allow copying: select the text and press Ctrl+C." : null}
        {state === "copied" ? <span className="sr-only">Copied to the clipboard.</span> : null}
      </span>
    </>
  );
}
