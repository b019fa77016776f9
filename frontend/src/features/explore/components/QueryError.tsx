import type { ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { ApiError, toUserMessage } from "@/lib/apiError";
import { byteOffsetToIndex, lineColumn } from "../editor/offsets";

const hints: Record<string, string> = {
  "dql.parse_error": "Check the syntax near the underlined part of the query.",
  "dql.unknown_function": "Use one of the functions the editor suggests.",
  "dql.invalid_argument": "Check the arguments of the underlined function or filter.",
  "dql.semantic_error": "Aggregates cannot be mixed with raw fields; aggregate every field or none.",
  "dql.time_range_too_large": "Choose a shorter time range.",
  "dql.too_many_points": "Choose a shorter time range or a larger interval, e.g. [1h::5m].",
  "dql.limit_too_large": "Lower LIMIT or SLIMIT.",
  "dql.forbidden_label": "Tags starting with __ and the workspace label cannot be queried.",
  "dql.unsupported_namespace": "Only metrics (M::) can be queried here.",
  "dql.timeout": "Narrow the query: a shorter range, fewer series (filters, SLIMIT) or a larger interval.",
  limit_exceeded: "This workspace reached one of its limits.",
};

/** Where the error is in the query text, as "line 1, column 9", when the API said. */
export function errorLocation(err: unknown, query: string): string | undefined {
  if (!(err instanceof ApiError) || !err.range) return undefined;
  const { line, column } = lineColumn(query, byteOffsetToIndex(query, err.range.start));
  return `line ${line}, column ${column}`;
}

export function QueryError({ error, query }: { error: unknown; query: string }): ReactElement {
  const code = error instanceof ApiError ? error.code : undefined;
  const where = errorLocation(error, query);
  return (
    <Alert title={code?.startsWith("dql.") ? "The query could not run" : "The query failed"} testId="query-error">
      <p className="mono">
        {where ? <span data-testid="query-error-position">{where}: </span> : null}
        {toUserMessage(error)}
      </p>
      {code ? (
        <p className="muted">
          <code>{code}</code> {hints[code] ?? ""}
        </p>
      ) : null}
    </Alert>
  );
}
