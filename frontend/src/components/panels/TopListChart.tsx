import type { CSSProperties, ReactElement } from "react";
import { formatValue } from "@/components/charts/units";
import type { TopList } from "./topList";

export interface TopListChartProps {
  list: TopList;
  unit?: string;
  decimals?: number | null;
  /** Accessible name of the list. */
  label: string;
  testId?: string;
}

/**
 * A ranked list of horizontal bars, one per series: its name, a bar as long as its value
 * against the largest one shown (in the threshold colour when the panel has thresholds) and
 * the value in the panel's unit.
 */
export function TopListChart({ list, unit = "none", decimals, label, testId = "toplist" }: TopListChartProps): ReactElement {
  const rows = list.rows.map((r) => ({ ...r, text: formatValue(r.value, unit, decimals) }));
  // The names and the values take columns as wide as their longest entry, so the bars line up.
  const columns = {
    "--toplist-name": `min(40%, ${Math.min(32, Math.max(4, ...rows.map((r) => r.name.length))) + 1}ch)`,
    "--toplist-value": `${Math.max(4, ...rows.map((r) => r.text.length)) + 1}ch`,
  } as CSSProperties;
  return (
    <div className="toplist">
      <ol className="toplist-rows" aria-label={label} data-testid={testId} style={columns}>
        {rows.map(({ text, ...r }, i) => {
          return (
            <li key={`${i}:${r.name}`} className="toplist-row" data-testid="toplist-row" data-value={r.value ?? ""}>
              <span className="toplist-name" title={r.name}>
                {r.name}
              </span>
              <span className="toplist-track" aria-hidden="true">
                <span
                  className="toplist-bar"
                  data-testid="toplist-bar"
                  data-color={r.color ?? ""}
                  style={{ width: `${(r.share * 100).toFixed(2)}%`, ...(r.color ? { background: r.color } : {}) }}
                />
              </span>
              <span className="toplist-value">{text}</span>
            </li>
          );
        })}
      </ol>
      {list.more > 0 ? (
        <p className="muted small toplist-more">
          {list.more} more series not shown
        </p>
      ) : null}
    </div>
  );
}
