import type { ReactElement } from "react";

/**
 * Two overlapping sheets, drawn rather than written: the "⧉" character is missing from
 * common Linux fonts and showed as an empty box. The button carrying it names the action.
 */
export function DuplicateIcon(): ReactElement {
  return (
    <svg className="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false" data-icon="duplicate">
      <rect x="5.5" y="5.5" width="8.5" height="8.5" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M10.5 3.5V3a1 1 0 0 0-1-1H3a1 1 0 0 0-1 1v6.5a1 1 0 0 0 1 1h.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}
