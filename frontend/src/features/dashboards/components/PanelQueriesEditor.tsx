import type { ReactElement } from "react";
import type { PanelQuery } from "@/api/dashboards";
import { QueriesEditor } from "@/components/query-editor/QueriesEditor";
import type { QueryCompletion } from "@/components/query-editor/useQueryCompletion";
import { emptyQueries } from "@/lib/dql/queryRefs";

export { emptyQueries };

export interface PanelQueriesEditorProps {
  queries: PanelQuery[];
  onChange: (queries: PanelQuery[]) => void;
  /** Runs the preview now (Ctrl+Enter). */
  onRun: () => void;
  completion: QueryCompletion;
}

const panelQueryLabel = (ref?: string): string => (ref ? `Panel query ${ref}` : "Panel query");

/**
 * A panel's queries, A to J (Explore's `QueriesEditor`), and what keeps the panel from being
 * applied: an empty query.
 */
export function PanelQueriesEditor({ queries, onChange, onRun, completion }: PanelQueriesEditorProps): ReactElement {
  const empty = emptyQueries(queries);
  const several = queries.length > 1;
  return (
    <section className="card panel-queries" aria-label="Queries">
      <QueriesEditor
        queries={queries}
        onChange={(i, patch) => onChange(queries.map((q, j) => (j === i ? { ...q, ...patch } : q)))}
        onAdd={(query) => onChange([...queries, query])}
        onRemove={(i) => onChange(queries.filter((_, j) => j !== i))}
        onRun={onRun}
        completion={completion}
        editorLabel={panelQueryLabel}
      >
        <p className="muted small editor-hint">
          The preview follows your edits; Ctrl+Enter (⌘+Enter) runs it now, Ctrl+Space suggests names. Use <code>$name</code>{" "}
          for a dashboard variable; in a legend, <code>{"{{host}}"}</code> for a tag&apos;s or label&apos;s value,{" "}
          <code>{"{{field}}"}</code> for the field. A PromQL query may use <code>$__rate_interval</code>,{" "}
          <code>$__interval</code> and <code>$__range</code>, as in Grafana.
        </p>
      </QueriesEditor>
      {empty.length ? (
        <p className="field-error" role="alert">
          {several ? `Query ${empty.join(", ")} ${empty.length > 1 ? "are" : "is"} empty: write it or remove it.` : "A panel needs a query."}
        </p>
      ) : null}
    </section>
  );
}
