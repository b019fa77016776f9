import type { ReactElement } from "react";
import { Alert } from "@/components/ui/Alert";
import { Button } from "@/components/ui/Button";
import { ApiError, toUserMessage } from "@/lib/apiError";
import { byteOffsetToIndex, lineColumn } from "@/lib/dql/offsets";

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

/**
 * The message without the position storage puts in front of it (`line 1:44: …`, also
 * `line 1, column 44: …`), when the position is shown on its own.
 */
export function withoutPosition(message: string): string {
  return message.replace(/^\s*line \d+(?::\d+|,\s*column \d+)\s*:\s*/i, "");
}

/**
 * True when the metrics store (vigil-storage) or the server could not be reached or did not
 * answer: nothing is wrong with the query, and the same query may work in a moment.
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ApiError) {
    return error.code === "storage_unavailable" || (!error.isDqlError && (error.status === 502 || error.status === 503));
  }
  // fetch rejects with a TypeError when the request did not get through
  return error instanceof TypeError;
}

export interface QueryErrorProps {
  error: unknown;
  query: string;
  /** Runs the query again; offered for errors that are not about the query text. */
  onRetry?: () => void;
  /** The query's reference (`B`) when it is one of several: "Query B could not run". */
  name?: string;
}

export function QueryError({ error, query, onRetry, name }: QueryErrorProps): ReactElement {
  const code = error instanceof ApiError ? error.code : undefined;
  const where = errorLocation(error, query);
  const retry = onRetry ? (
    <Button size="sm" onClick={onRetry} data-testid="query-retry">
      Try again
    </Button>
  ) : null;
  if (isUnreachable(error)) {
    return (
      <Alert title="The metrics store could not be reached" testId="query-error">
        <p>Your query is fine, but Vigil could not get an answer from the metrics store. Try again shortly.</p>
        <p className="muted small mono" data-testid="query-error-detail">
          {toUserMessage(error)}
          {code ? ` (${code})` : ""}
        </p>
        {retry}
      </Alert>
    );
  }
  const isDql = code?.startsWith("dql.") ?? false;
  const message = toUserMessage(error);
  return (
    <Alert
      title={`${name ? `Query ${name}` : "The query"} ${isDql ? "could not run" : "failed"}`}
      testId="query-error"
    >
      <p className="mono">
        {where ? <span data-testid="query-error-position">{where}: </span> : null}
        {where ? withoutPosition(message) : message}
      </p>
      {code ? (
        <p className="muted">
          <code>{code}</code> {hints[code] ?? ""}
        </p>
      ) : null}
      {/* a query the storage refused stays refused; anything else may pass next time */}
      {isDql && code !== "dql.timeout" ? null : retry}
    </Alert>
  );
}
