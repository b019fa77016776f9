import type { ReactElement, ReactNode } from "react";

export interface EmptyStateProps {
  title: string;
  children?: ReactNode;
  testId?: string;
}

export function EmptyState({ title, children, testId }: EmptyStateProps): ReactElement {
  return (
    <div className="empty-state" role="status" data-testid={testId}>
      <p className="empty-title">{title}</p>
      {children ? <div className="empty-body">{children}</div> : null}
    </div>
  );
}
