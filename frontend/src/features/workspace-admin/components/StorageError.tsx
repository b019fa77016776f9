import type { ReactElement, ReactNode } from "react";
import { Alert } from "@/components/ui/Alert";

/** Storage did not answer: an error in words, with what the backend was told kept below it for whoever debugs. */
export function StorageError({ detail, testId, children }: { detail: string; testId: string; children: ReactNode }): ReactElement {
  return (
    <Alert testId={testId}>
      <p>{children}</p>
      <details className="muted small">
        <summary>Technical detail</summary>
        <code>{detail}</code>
      </details>
    </Alert>
  );
}
