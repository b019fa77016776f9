import type { ReactElement } from "react";

export interface QueryHistoryPickerProps {
  /** The workspace's recent queries, newest first (`queryHistory.ts`). */
  history: readonly string[];
  /** Puts the picked query in the first editor (not run yet). */
  onPick: (query: string) => void;
}

/** Explore's History: the recent queries of the workspace, in a menu that puts one in the editor. */
export function QueryHistoryPicker({ history, onPick }: QueryHistoryPickerProps): ReactElement {
  return (
    <label className="inline-field">
      History
      <select
        value=""
        onChange={(e) => {
          if (e.target.value) onPick(e.target.value);
        }}
        disabled={history.length === 0}
        data-testid="query-history"
      >
        <option value="">{history.length ? "Recent queries…" : "No queries yet"}</option>
        {history.map((h) => (
          <option key={h} value={h}>
            {h.length > 90 ? `${h.slice(0, 90)}…` : h}
          </option>
        ))}
      </select>
    </label>
  );
}
