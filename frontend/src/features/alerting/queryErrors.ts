import { ApiError } from "@/lib/apiError";

/**
 * The error of a monitor's or recording rule's query, when `err` is one: storage refused the
 * query on save or preview (400, `field: "query"`, a DQL `code`, and its `position` as byte
 * offsets into the query). The message loses the `query: ` the API puts in front, so it reads
 * as Explore's do. Undefined for any other error (a name taken, a limit).
 */
export function queryError(err: unknown): ApiError | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const body = err.body as { field?: unknown } | undefined;
  const aboutQuery = (typeof body === "object" && body !== null && body.field === "query") || err.isDqlError;
  if (!aboutQuery || err.status >= 500) return undefined;
  const message = err.message.replace(/^query:\s*/, "");
  return new ApiError(err.status, message, err.code, err.range, err.body);
}
