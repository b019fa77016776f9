import type { ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import type { ResultCut } from "../resultLimits";

const count = (n: number): string => n.toLocaleString("en-US");

/**
 * Says that a result stopped at its query's LIMIT or SLIMIT (`resultCut`), so the chart is
 * not the whole answer, and what to add to the query to see the rest. `query` names the query
 * (`B`) when Explore ran several.
 */
export function ResultLimitNotice({ cut, query }: { cut: ResultCut; query?: string }): ReactElement | null {
  const { series, rows } = cut;
  if (!series && !rows) return null;
  return (
    <div className="result-limit-notice" style={{ marginBottom: "0.5rem" }}>
      <Alert
        tone="info"
        title={query ? `Not everything of query ${query} is shown` : "Not everything is shown"}
        testId="result-limit-notice"
      >
        {rows ? (
          <p>
            {rows.series === 1 ? "A series" : `${count(rows.series)} series`} reached{" "}
            {rows.explicit ? `LIMIT ${rows.limit}` : `the default limit of ${count(rows.limit)} rows per series`}:{" "}
            {rows.series === 1 ? "it shows" : "each shows"} only {count(rows.limit)} points, and the rest of the time
            range is missing. Add an interval to the time expression, e.g. <code>[30d::1h]</code>, or raise the limit,
            e.g. <code>LIMIT 10000</code>.
          </p>
        ) : null}
        {series ? (
          <p>
            The result stopped at {count(series.slimit)} series (
            {series.explicit ? `SLIMIT ${series.slimit}` : "the default SLIMIT"}); there may be more.{" "}
            {series.explicit ? "Raise it, e.g." : "Add"}{" "}
            <code>SLIMIT {Math.min(10_000, Math.max(100, series.slimit * 5))}</code>, or narrow the query with a
            filter, e.g. <code>{"{host = 'web-01'}"}</code>.
          </p>
        ) : null}
      </Alert>
    </div>
  );
}
