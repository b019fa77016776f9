import { useId, type ReactElement } from "react";
import type { CompletionSource } from "@codemirror/autocomplete";
import { Button } from "@/components/ui/Button";
import { DqlEditor } from "@/features/explore/editor/DqlEditor";
import type { PanelQuery } from "../api";

/** At most this many queries per panel (the schema's limit). */
export const MAX_PANEL_QUERIES = 10;

/** The first reference (`A` … `Z`) no query of the panel has yet. */
export function nextRefId(queries: readonly PanelQuery[]): string {
  const used = new Set(queries.map((q) => q.ref_id ?? ""));
  for (let c = 65; c <= 90; c += 1) {
    const id = String.fromCharCode(c);
    if (!used.has(id)) return id;
  }
  return `Q${queries.length + 1}`;
}

/** References of the queries still empty (a panel cannot be applied with one). */
export function emptyQueries(queries: readonly PanelQuery[]): string[] {
  return queries.filter((q) => q.query.trim() === "").map((q, i) => q.ref_id ?? String.fromCharCode(65 + i));
}

export interface PanelQueriesEditorProps {
  queries: PanelQuery[];
  onChange: (queries: PanelQuery[]) => void;
  /** Runs the preview now (Ctrl+Enter). */
  onRun: () => void;
  completion: CompletionSource;
}

/**
 * A panel's queries, A to J: each with its DQL editor, how its series are named in the
 * legend (`{{host}}`), a switch to leave it out of the drawing, and a way to remove it.
 */
export function PanelQueriesEditor({ queries, onChange, onRun, completion }: PanelQueriesEditorProps): ReactElement {
  const id = useId();
  const several = queries.length > 1;
  const set = (i: number, patch: Partial<PanelQuery>): void =>
    onChange(queries.map((q, j) => (j === i ? { ...q, ...patch } : q)));
  const empty = emptyQueries(queries);

  return (
    <section className="card panel-queries" aria-label="Queries">
      {queries.map((q, i) => {
        const ref = q.ref_id ?? String.fromCharCode(65 + i);
        return (
          <div key={ref} className="panel-query" data-testid="panel-query" data-ref={ref}>
            {several || q.hidden ? (
              <div className="panel-query-head row">
                <strong className="panel-query-ref" aria-hidden="true">
                  {ref}
                </strong>
                <label className="check">
                  <input type="checkbox" checked={q.hidden === true} onChange={(e) => set(i, { hidden: e.target.checked })} />
                  Hide {several ? `query ${ref}` : "the query"}
                </label>
                {several ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Remove query ${ref}`}
                    onClick={() => onChange(queries.filter((_, j) => j !== i))}
                  >
                    Remove
                  </Button>
                ) : null}
              </div>
            ) : null}
            <DqlEditor
              value={q.query}
              onChange={(query) => set(i, { query })}
              onRun={onRun}
              completion={completion}
              label={several ? `Panel query ${ref}` : "Panel query"}
            />
            <div className="field panel-query-legend">
              <label htmlFor={`${id}-${ref}-legend`}>{several ? `Legend of query ${ref}` : "Legend"}</label>
              <input
                id={`${id}-${ref}-legend`}
                value={q.legend_format ?? ""}
                maxLength={200}
                placeholder="{{host}} — default: the tags"
                onChange={(e) => set(i, { legend_format: e.target.value || null })}
              />
            </div>
          </div>
        );
      })}
      <div className="row">
        <Button
          size="sm"
          disabled={queries.length >= MAX_PANEL_QUERIES}
          onClick={() => onChange([...queries, { ref_id: nextRefId(queries), query: "" }])}
        >
          Add query
        </Button>
        <p className="muted small editor-hint">
          The preview follows your edits; Ctrl+Enter (⌘+Enter) runs it now, Ctrl+Space suggests names. Use <code>$name</code>{" "}
          for a dashboard variable; in a legend, <code>{"{{host}}"}</code> for a tag&apos;s value, <code>{"{{field}}"}</code>{" "}
          for the field.
        </p>
      </div>
      {empty.length ? (
        <p className="field-error" role="alert">
          {several ? `Query ${empty.join(", ")} ${empty.length > 1 ? "are" : "is"} empty: write it or remove it.` : "A panel needs a query."}
        </p>
      ) : null}
    </section>
  );
}
