import { useId, useMemo, type ReactElement } from "react";
import { DqlEditor, type EditorError } from "@/components/query-editor/DqlEditor";
import { QueryError } from "@/components/query-editor/QueryError";
import { useDqlCompletion } from "@/components/query-editor/useDqlCompletion";
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

const PLACEHOLDER: Record<Language, string> = {
  dql: "M::cpu:(avg(usage_user)) BY host",
  promql: "avg by (host) (cpu_usage_user)",
};

/**
 * A monitor's (or recording rule's) query: DQL or PromQL, in the editor Explore uses (DQL gets
 * its completion of measurements, fields and tags). Storage's error shows under it with its
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
  const completion = useDqlCompletion(workspaceId);
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
        <label className="inline-field">
          Language
          <select
            value={language}
            onChange={(e) => onLanguage(e.target.value as Language)}
            disabled={readOnly}
            data-testid="query-language"
          >
            <option value="dql">DQL</option>
            <option value="promql">PromQL</option>
          </select>
        </label>
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
          completion={language === "dql" ? completion : undefined}
          label={label}
          placeholder={PLACEHOLDER[language]}
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
