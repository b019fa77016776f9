import type { ReactElement } from "react";

export function Spinner({ label = "Loading" }: { label?: string }): ReactElement {
  return (
    <span className="spinner" role="status" aria-live="polite">
      <span className="spinner-dot" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
