import { useState, type ReactElement } from "react";
import { Button } from "@/components/ui/Button";

export interface CopyButtonProps {
  text: string;
  /** Accessible name, e.g. "Copy key". */
  label: string;
}

/** Copies `text` to the clipboard and says so; tells the user to copy by hand when the browser refuses. */
export function CopyButton({ text, label }: CopyButtonProps): ReactElement {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const onClick = (): void => {
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
      <span role="status" className="muted small">
        {state === "failed" ? "The browser did not allow copying: select the text and press Ctrl+C." : ""}
      </span>
    </>
  );
}
