import { useEffect, useId, useRef, type ReactElement, type ReactNode } from "react";
import { Button } from "@/components/ui/Button";
import { languageOf, type QueryLanguage } from "@/lib/dql/promql";
import { MAX_QUERIES, nextRefId, queryRef, type QueryItem } from "@/lib/dql/queryRefs";
import { DqlEditor, type EditorError } from "./DqlEditor";
import { LanguageSelect, QUERY_PLACEHOLDERS } from "./LanguageSelect";
import type { QueryCompletion } from "./useQueryCompletion";
import "./queriesEditor.css";

export interface QueriesEditorProps {
  queries: readonly QueryItem[];
  /** A change to the query at `index`: its text, language, legend format or hidden flag. */
  onChange: (index: number, patch: Partial<QueryItem>) => void;
  /** Adds `query` (the next reference, empty) after the others. */
  onAdd: (query: QueryItem) => void;
  onRemove: (index: number) => void;
  /** Ctrl+Enter in any of the editors. */
  onRun: () => void;
  /** Completion per language (`useQueryCompletion`). */
  completion: QueryCompletion;
  /** The editor's accessible name; `ref` is given when there are several queries. */
  editorLabel: (ref?: string, language?: QueryLanguage) => string;
  /** What the last run said about each query (its DQL error), underlined in its editor. */
  editorErrors?: Readonly<Record<string, EditorError | undefined>>;
  /** Shown under a query's editor (its error), by reference. */
  below?: (ref: string) => ReactNode;
  /** Beside **Add query**: hints, other controls. */
  children?: ReactNode;
}

/**
 * Several queries, A to J, as Explore and the panel editor edit them: each with its
 * language (DQL or PromQL), its editor (completion, Ctrl+Enter runs), how its series are
 * named in the legend (`{{host}}`), a switch to leave it out of the drawing, and a way to
 * remove it. Adding a
 * query puts the focus in its editor; removing one puts it in the editor that took its place
 * (or the one before).
 */
export function QueriesEditor({
  queries,
  onChange,
  onAdd,
  onRemove,
  onRun,
  completion,
  editorLabel,
  editorErrors,
  below,
  children,
}: QueriesEditorProps): ReactElement {
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  // the query whose editor takes the focus once it is drawn (after Add query or Remove)
  const focusNext = useRef<string | undefined>(undefined);
  const several = queries.length > 1;

  useEffect(() => {
    if (!focusNext.current) return;
    // once the editor is drawn for good (a new one may be made twice in development)
    const frame = requestAnimationFrame(() => {
      const ref = focusNext.current;
      const editor = ref
        ? root.current?.querySelector<HTMLElement>(`[data-ref="${CSS.escape(ref)}"] [data-testid="dql-editor"]`)
        : undefined;
      if (!editor) return;
      focusNext.current = undefined;
      editor.focus();
    });
    return () => cancelAnimationFrame(frame);
  });

  const remove = (index: number): void => {
    const next = queries[index + 1] ? index + 1 : index - 1;
    focusNext.current = next >= 0 ? queryRef(queries[next], next) : undefined;
    onRemove(index);
  };

  return (
    <div className="queries-editor" ref={root}>
      {queries.map((q, i) => {
        const ref = queryRef(q, i);
        const language = languageOf(q);
        const extra = below?.(ref);
        return (
          <div key={ref} className="query-row" data-testid="query-row" data-ref={ref} data-hidden={q.hidden === true}>
            {several || q.hidden ? (
              <div className="query-row-head row">
                <strong className="query-row-ref" aria-hidden="true">
                  {ref}
                </strong>
                <label className="check">
                  <input type="checkbox" checked={q.hidden === true} onChange={(e) => onChange(i, { hidden: e.target.checked })} />
                  Hide {several ? `query ${ref}` : "the query"}
                </label>
                {several ? (
                  <Button size="sm" variant="ghost" aria-label={`Remove query ${ref}`} onClick={() => remove(i)}>
                    Remove
                  </Button>
                ) : null}
              </div>
            ) : null}
            <DqlEditor
              value={q.query}
              onChange={(query) => onChange(i, { query })}
              onRun={onRun}
              completion={completion[language]}
              language={language}
              placeholder={QUERY_PLACEHOLDERS[language]}
              error={editorErrors?.[ref]}
              label={editorLabel(several ? ref : undefined, language)}
            />
            {extra ? <div className="query-row-below">{extra}</div> : null}
            <div className="row query-row-options">
              <div className="field">
                <label htmlFor={`${id}-${ref}-language`}>{several ? `Language of query ${ref}` : "Language"}</label>
                <LanguageSelect
                  id={`${id}-${ref}-language`}
                  value={language}
                  onChange={(next) => onChange(i, { language: next })}
                />
              </div>
              <div className="field query-row-legend">
                <label htmlFor={`${id}-${ref}-legend`}>{several ? `Legend of query ${ref}` : "Legend"}</label>
                <input
                  id={`${id}-${ref}-legend`}
                  value={q.legend_format ?? ""}
                  maxLength={200}
                  placeholder={language === "promql" ? "{{instance}} — default: the labels" : "{{host}} — default: the tags"}
                  onChange={(e) => onChange(i, { legend_format: e.target.value || null })}
                />
              </div>
            </div>
          </div>
        );
      })}
      <div className="row queries-editor-footer">
        <Button
          size="sm"
          disabled={queries.length >= MAX_QUERIES}
          title={queries.length >= MAX_QUERIES ? `${MAX_QUERIES} queries at most` : undefined}
          onClick={() => {
            const ref_id = nextRefId(queries);
            focusNext.current = ref_id;
            onAdd({ ref_id, query: "" });
          }}
        >
          Add query
        </Button>
        {children}
      </div>
    </div>
  );
}
