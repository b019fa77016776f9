import type { ReactElement, ReactNode } from "react";

/**
 * Small icons drawn in SVG rather than written as characters: common Linux fonts lack some
 * symbols (`⧉` showed as an empty box). Each is hidden from screen readers; the button
 * carrying it names the action.
 */
function Icon({ name, children }: { name: string; children: ReactNode }): ReactElement {
  return (
    <svg className="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false" data-icon={name}>
      <g fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round">
        {children}
      </g>
    </svg>
  );
}

/** Two overlapping sheets. */
export function DuplicateIcon(): ReactElement {
  return (
    <Icon name="duplicate">
      <rect x="5.5" y="5.5" width="8.5" height="8.5" rx="1.5" />
      <path d="M10.5 3.5V3a1 1 0 0 0-1-1H3a1 1 0 0 0-1 1v6.5a1 1 0 0 0 1 1h.5" />
    </Icon>
  );
}

/** A magnifier with a minus. */
export function ZoomOutIcon(): ReactElement {
  return (
    <Icon name="zoom-out">
      <circle cx="6.5" cy="6.5" r="4.75" />
      <path d="M4.25 6.5h4.5M10 10l4 4" />
    </Icon>
  );
}

/** A circled "i". */
export function InfoIcon(): ReactElement {
  return (
    <Icon name="info">
      <circle cx="8" cy="8" r="6.25" />
      <path d="M8 7.2v4M8 4.6v.1" strokeWidth="1.6" />
    </Icon>
  );
}
