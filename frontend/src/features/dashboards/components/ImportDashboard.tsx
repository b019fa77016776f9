import { useId, useState, type ChangeEvent, type FormEvent, type ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { toUserMessage } from "@/lib/apiError";
import type { Dashboard } from "../api";
import { parseExportDocument } from "../exportFile";
import { useImportDashboard } from "../hooks/useDashboards";

export interface ImportDashboardProps {
  workspaceId: string;
  onImported: (dashboard: Dashboard) => void;
}

/** Imports an exported dashboard from a file or pasted JSON; the backend's refusal is shown as is. */
export function ImportDashboard({ workspaceId, onImported }: ImportDashboardProps): ReactElement {
  const id = useId();
  const [text, setText] = useState("");
  const [localError, setLocalError] = useState<string>();
  const importMutation = useImportDashboard(workspaceId);

  const onFile = async (e: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const file = e.target.files?.[0];
    if (!file) return;
    setText(await file.text());
    setLocalError(undefined);
    importMutation.reset();
  };

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    const parsed = parseExportDocument(text);
    if ("error" in parsed) {
      setLocalError(parsed.error);
      return;
    }
    setLocalError(undefined);
    importMutation.mutate(parsed.doc, { onSuccess: onImported });
  };

  const error = localError ?? (importMutation.isError ? toUserMessage(importMutation.error) : undefined);
  return (
    <form className="card stack import-form" onSubmit={onSubmit} aria-label="Import dashboard" noValidate>
      <h2>Import a dashboard</h2>
      <div className="row">
        <label htmlFor={`${id}-file`}>JSON file</label>
        <input id={`${id}-file`} type="file" accept="application/json,.json" onChange={(e) => void onFile(e)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>Or paste the exported JSON</label>
        <textarea
          id={`${id}-text`}
          className="mono"
          rows={6}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-err` : undefined}
          onChange={(e) => setText(e.target.value)}
          placeholder='{"format": "vigil.dashboard", "title": "…", "spec": {…}}'
        />
      </div>
      {error ? (
        <div id={`${id}-err`}>
          <Alert title="The dashboard was not imported" testId="import-error">
            {error}
          </Alert>
        </div>
      ) : null}
      <div className="row">
        <Button type="submit" variant="primary" disabled={importMutation.isPending}>
          Import
        </Button>
      </div>
    </form>
  );
}
