import { useId, useState, type ChangeEvent, type FormEvent, type ReactElement } from "react";
import type { Dashboard, GrafanaImportResult } from "@/api/dashboards";
import { useDashboards } from "@/api/useDashboards";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { toUserMessage } from "@/lib/apiError";
import { grafanaTitle, importTitle, isGrafanaDashboard, parseExportDocument, sameTitle } from "../exportFile";
import { useImportDashboard, useImportGrafanaDashboard } from "../hooks/useDashboardMutations";
import { GrafanaImportReport } from "./GrafanaImportReport";

export interface ImportDashboardProps {
  workspaceId: string;
  onImported: (dashboard: Dashboard) => void;
}

/**
 * Imports an exported dashboard from a file or pasted JSON, a Vigil export or a Grafana
 * dashboard (recognised by its shape); the backend's refusal is shown as is. The title can be
 * changed before importing; when the workspace already has a dashboard by the document's
 * title, the form says so and proposes `<title> (imported)`, and it does not create a second
 * dashboard under a name already in use. After a Grafana import, what could not be carried
 * over is listed before the dashboard is opened.
 */
export function ImportDashboard({ workspaceId, onImported }: ImportDashboardProps): ReactElement {
  const id = useId();
  const [text, setText] = useState("");
  // the title typed by the user; undefined: the one proposed for the document
  const [title, setTitle] = useState<string>();
  const [localError, setLocalError] = useState<string>();
  const vigilImport = useImportDashboard(workspaceId);
  const grafanaImport = useImportGrafanaDashboard(workspaceId);
  const [report, setReport] = useState<GrafanaImportResult>();
  const list = useDashboards(workspaceId);
  const existing = (list.data?.data ?? []).map((d) => d.title);

  const parsed = text.trim() ? parseExportDocument(text) : undefined;
  const doc = parsed && "doc" in parsed ? parsed.doc : undefined;
  const grafana = doc !== undefined && isGrafanaDashboard(doc as unknown as Record<string, unknown>);
  const importMutation = grafana ? grafanaImport : vigilImport;
  const docTitle = grafana
    ? grafanaTitle(doc as unknown as Record<string, unknown>)
    : typeof doc?.title === "string"
      ? doc.title.trim()
      : "";
  const clash = docTitle !== "" && existing.some((t) => sameTitle(t, docTitle));
  const shownTitle = title ?? (docTitle ? importTitle(docTitle, existing) : "");
  const titleError = !doc
    ? undefined
    : !shownTitle.trim()
      ? "Give the dashboard a title."
      : existing.some((t) => sameTitle(t, shownTitle))
        ? `This workspace already has a dashboard called "${shownTitle.trim()}"; choose another title.`
        : undefined;

  const newText = (value: string): void => {
    setText(value);
    setTitle(undefined);
    setLocalError(undefined);
    vigilImport.reset();
    grafanaImport.reset();
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const file = e.target.files?.[0];
    if (!file) return;
    newText(await file.text());
  };

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    const result = parseExportDocument(text);
    if ("error" in result) {
      setLocalError(result.error);
      return;
    }
    setLocalError(undefined);
    if (titleError) return;
    if (isGrafanaDashboard(result.doc as unknown as Record<string, unknown>)) {
      const grafanaDoc = result.doc as unknown as Record<string, unknown>;
      grafanaImport.mutate({ doc: grafanaDoc, title: shownTitle.trim() }, { onSuccess: setReport });
    } else vigilImport.mutate({ ...result.doc, title: shownTitle.trim() }, { onSuccess: onImported });
  };

  if (report) return <GrafanaImportReport result={report} onOpen={() => onImported(report.dashboard)} />;

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
          onChange={(e) => newText(e.target.value)}
          placeholder='{"format": "vigil.dashboard", "title": "…", "spec": {…}} or a Grafana dashboard'
        />
      </div>
      {grafana ? (
        <p className="field-hint" data-testid="import-grafana">
          A Grafana dashboard: its Prometheus panels, rows, variables, units and thresholds are carried over, and what
          cannot be is listed after the import.
        </p>
      ) : null}
      {doc ? (
        <div className="field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            value={shownTitle}
            maxLength={200}
            aria-invalid={titleError ? true : undefined}
            aria-describedby={titleError ? `${id}-title-err` : clash ? `${id}-title-hint` : undefined}
            onChange={(e) => setTitle(e.target.value)}
          />
          {titleError ? (
            <span id={`${id}-title-err`} className="field-error">
              {titleError}
            </span>
          ) : clash ? (
            <span id={`${id}-title-hint`} className="field-hint" data-testid="import-title-clash">
              A dashboard called "{docTitle}" already exists in this workspace; this one is imported beside it, as a new
              dashboard under this title.
            </span>
          ) : null}
        </div>
      ) : null}
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
