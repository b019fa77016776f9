/**
 * One error type for every failed API call, and one function that turns any thrown value
 * into a sentence for the user.
 *
 * The backend answers errors in two shapes:
 *  - REST (FastAPI): `{"detail": "Workspace not found", "code": "not_found"}`; validation
 *    errors carry `detail` as a list of `{loc, msg}`.
 *  - DQL (`/query/raw`, DQL.md §2): `{"error_code": "dql.parse_error", "message": "…"}`,
 *    optionally with the offending byte range of the query.
 */

export interface TextRange {
  /** Byte offset (0-based) where the problem starts. */
  start: number;
  /** Offset just after the problem; equal to `start` for a point. */
  end: number;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly range: TextRange | undefined;
  readonly body: unknown;

  constructor(status: number, message: string, code?: string, range?: TextRange, body?: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.range = range;
    this.body = body;
  }

  /** True for errors the DQL layer reports about the query text. */
  get isDqlError(): boolean {
    return this.code?.startsWith("dql.") ?? false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Reads an error range in any of the forms the API uses: `position`, `pos`/`end`, `range`. */
export function readRange(body: Record<string, unknown>): TextRange | undefined {
  const candidates: unknown[] = [body.position, body.range, body];
  for (const c of candidates) {
    if (asInt(c) !== undefined) {
      const start = c as number;
      return { start, end: start };
    }
    if (isRecord(c)) {
      const start = asInt(c.start) ?? asInt(c.pos);
      if (start !== undefined) {
        const end = asInt(c.end) ?? start;
        return { start, end: Math.max(start, end) };
      }
    }
    if (Array.isArray(c) && c.length === 2 && asInt(c[0]) !== undefined && asInt(c[1]) !== undefined) {
      return { start: c[0] as number, end: Math.max(c[0] as number, c[1] as number) };
    }
  }
  return undefined;
}

function detailToText(detail: unknown): string | undefined {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    const parts = detail.flatMap((item) => {
      if (!isRecord(item)) return [];
      const msg = typeof item.msg === "string" ? item.msg : undefined;
      const loc = Array.isArray(item.loc) ? item.loc.filter((p) => p !== "body").join(".") : "";
      if (!msg) return [];
      return [loc ? `${loc}: ${msg}` : msg];
    });
    return parts.length > 0 ? parts.join("; ") : undefined;
  }
  return undefined;
}

const statusText: Record<number, string> = {
  400: "The request was not accepted.",
  401: "Your session has expired. Please sign in again.",
  403: "You do not have permission to do that.",
  404: "Not found.",
  409: "That conflicts with something that already exists.",
  413: "The request is too large.",
  422: "Some fields are not valid.",
  429: "A limit was reached. Try again shortly.",
  500: "The server failed to answer. Try again, and check the service health if it persists.",
  502: "The server is not reachable right now.",
  503: "The service is temporarily unavailable. Try again shortly.",
  504: "The server took too long to answer.",
};

/** Builds an ApiError from an HTTP status and the decoded JSON body (or raw text). */
export function toApiError(status: number, body: unknown): ApiError {
  if (isRecord(body)) {
    if (typeof body.error_code === "string") {
      const message = typeof body.message === "string" ? body.message : body.error_code;
      return new ApiError(status, message, body.error_code, readRange(body), body);
    }
    const detail = detailToText(body.detail);
    const code = typeof body.code === "string" ? body.code : undefined;
    if (detail) {
      return new ApiError(status, detail, code, isRecord(body.detail) ? readRange(body.detail) : readRange(body), body);
    }
    if (typeof body.message === "string") return new ApiError(status, body.message, code, undefined, body);
    if (typeof body.error === "string") return new ApiError(status, body.error, code, undefined, body);
  }
  if (typeof body === "string" && body.trim() !== "" && body.length < 300 && !body.trimStart().startsWith("<")) {
    return new ApiError(status, body.trim(), undefined, undefined, body);
  }
  return new ApiError(status, statusText[status] ?? `Request failed (HTTP ${status}).`, undefined, undefined, body);
}

/** The one way the UI turns an error into words. */
export function toUserMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof TypeError) return "Cannot reach the server. Check your connection and that Vigil is running.";
  if (err instanceof Error && err.name === "AbortError") return "The request was cancelled.";
  if (err instanceof Error && err.message) return err.message;
  if (typeof err === "string" && err) return err;
  return "Something went wrong.";
}

/** Pydantic prefixes the messages of custom validators; the field already says what is wrong. */
function cleanFieldMessage(msg: string): string {
  const text = msg.replace(/^(Value error|Assertion failed), /, "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The messages of a validation error (422) by field name (`name`, `limits.max_series`), to show
 * each one at its field. Reads the `errors` list the API adds, or FastAPI's `detail` list.
 * Empty for any other error; the first message of a field wins.
 */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError) || !isRecord(err.body)) return {};
  const items = Array.isArray(err.body.errors) ? err.body.errors : Array.isArray(err.body.detail) ? err.body.detail : [];
  const out: Record<string, string> = {};
  for (const item of items) {
    if (!isRecord(item) || typeof item.msg !== "string" || !Array.isArray(item.loc)) continue;
    const field = item.loc.filter((p) => p !== "body").join(".");
    if (field && !(field in out)) out[field] = cleanFieldMessage(item.msg);
  }
  return out;
}
