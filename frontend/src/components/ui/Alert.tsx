import type { ReactElement, ReactNode } from "react";

export interface AlertProps {
  title?: string;
  children: ReactNode;
  tone?: "error" | "info" | "success";
  testId?: string;
}

/** An inline message. Errors are announced to screen readers. */
export function Alert({ title, children, tone = "error", testId }: AlertProps): ReactElement {
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"} data-testid={testId}>
      {title ? <strong className="alert-title">{title}</strong> : null}
      <div>{children}</div>
    </div>
  );
}
