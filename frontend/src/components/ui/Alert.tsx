import type { ReactElement, ReactNode } from "react";

export interface AlertProps {
  title?: string;
  children: ReactNode;
  tone?: "error" | "info" | "success";
  testId?: string;
  /**
   * The title as a heading of this level, when the message is all a page shows (a workspace
   * that cannot be found): it is then the page's main heading. Bold text otherwise.
   */
  titleAs?: "h1" | "h2";
}

/** An inline message. Errors are announced to screen readers. */
export function Alert({ title, children, tone = "error", testId, titleAs }: AlertProps): ReactElement {
  const Title = titleAs ?? "strong";
  return (
    <div className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"} data-testid={testId}>
      {title ? <Title className="alert-title">{title}</Title> : null}
      <div>{children}</div>
    </div>
  );
}
