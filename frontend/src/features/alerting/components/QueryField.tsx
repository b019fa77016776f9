import { useId, useMemo, type ReactElement } from "react";
import { DqlEditor, type EditorError } from "@/components/query-editor/DqlEditor";
import { QueryError } from "@/components/query-editor/QueryError";
import { LanguageSelect, QUERY_PLACEHOLDERS } from "@/components/query-editor/LanguageSelect";
import { useQueryCompletion } from "@/components/query-editor/useQueryCompletion";
import { byteOffsetToIndex } from "@/lib/dql/offsets";
import type { ApiError } from "@/lib/apiError";
import type { Language } from "../api";

export interface QueryFieldProps {
  workspaceId: string;
  language: Language;
  query: string;
  onLanguage: (language: Language) => void;
  onQuery: (query: string) => void;
  /** Ctrl+Enter in the editor (runs the preview at once). */
  onRun: () => void;
  /** What storage said about `errorQuery` (the text it was given): shown under the editor, underlined in it. */
  error?: ApiError;
  errorQuery?: string;
  /** A check made before sending ("Write the query …"). */
  message?: string;
  readOnly?: boolean;
  /** The editor's accessible name. */
  label?: string;
}

/**
 * A monitor's (or recording rule's) query: DQL or PromQL, in the editor Explore uses, with
 * the same completion (measurements, fields and tags; metrics and labels). Storage's error shows under it with its
 * line and column, and its range is underlined while the text is the one that was refused.
 */
export function QueryField({
  workspaceId,
  language,
  query,
  onLanguage,
  onQuery,
  onRun,
  error,
  errorQuery,
  message,
  readOnly = false,
  label = "Monitor query",
}: QueryFieldProps): ReactElement {
  const captionId = useId();
  const completion = useQueryCompletion(workspaceId);
  const languageId = useId();
  const shown = errorQuery ?? query;
  const underline: EditorError | undefined = useMemo(
    () =>
      error?.range && shown === query
        ? {
            from: byteOffsetToIndex(query, error.range.start),
            to: byteOffsetToIndex(query, error.range.end),
            message: error.message,
          }
        : undefined,
    [error, shown, query],
  );
  return (
    <div className="stack" data-testid="query-field">
      <div className="query-language">
        <span className="inline-field">
          <label htmlFor={languageId}>Language</label>
          <LanguageSelect id={languageId} value={language} onChange={onLanguage} disabled={readOnly} />
        </span>
        <span className="muted small">
          {language === "dql"
            ? "Each series the query returns (a BY group) is alerted on separately."
            : "An instant query: each series (its labels) is alerted on separately."}
        </span>
      </div>
      {readOnly ? (
        <figure className="query-figure" aria-labelledby={captionId}>
          <figcaption id={captionId} className="sr-only">
            {label}
          </figcaption>
          <pre className="query-text">{query}</pre>
        </figure>
      ) : (
        <DqlEditor
          value={query}
          onChange={onQuery}
          onRun={onRun}
          error={underline}
          completion={completion[language]}
          language={language}
          label={label}
          placeholder={QUERY_PLACEHOLDERS[language]}
        />
      )}
      {message ? (
        <span className="field-error" data-testid="query-message">
          {message}
        </span>
      ) : null}
      {error ? <QueryError error={error} query={shown} /> : null}
    </div>
  );
}
