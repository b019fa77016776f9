import { queryPrometheusLabelsGet, queryPrometheusLabelValuesGet, queryQueryRaw } from "@/client/sdk.gen";
import { ApiError } from "@/lib/apiError";
import type { DqlQuery, DqlRequest, DqlResponse, DqlResult } from "@/lib/dql/dql";
import "@/lib/apiClient";

/** Runs DQL in one workspace with the signed-in user's session. */
export async function queryRaw(workspaceId: string, request: DqlRequest, signal?: AbortSignal): Promise<DqlResponse> {
  const res = await queryQueryRaw({ path: { workspace_id: workspaceId }, body: request, signal, throwOnError: true });
  return res.data;
}

/** One query's own outcome in a run of several: its result, or the DQL error it alone caused. */
export type QueryOutcome = { result: DqlResult; error?: undefined } | { result?: undefined; error: ApiError };

/** An error about one query's text (a DQL error the storage answered 4xx), not about the run. */
export function isQueryError(err: unknown): err is ApiError {
  return err instanceof ApiError && err.isDqlError && err.status >= 400 && err.status < 500;
}

/**
 * The query of a request of `count` that the storage names in its error (`query 2: …`), as an
 * index, and the error as that query alone would have had it (the position is already in its
 * own text).
 */
export function refusedQuery(err: ApiError, count: number): { index: number; error: ApiError } | undefined {
  const m = /^query (\d+): /.exec(err.message);
  if (!m) return undefined;
  const index = Number(m[1]) - 1;
  if (index < 0 || index >= count) return undefined;
  return { index, error: new ApiError(err.status, err.message.slice(m[0].length), err.code, err.range, err.body) };
}

/**
 * Runs `queries` in one request and gives each its own outcome. The storage answers all of a
 * request's queries or none: one bad query refuses the whole request (400, `query 2: …`, the
 * position in that query's text). So the query it names gets that error and the others are
 * asked again together, until each has its result or its own error (one more request per bad
 * query). When the error names no query, each is asked on its own. An error that is not about
 * a query's text (the store unreachable, the time budget spent, a limit) rejects the run.
 */
export async function queryEach(workspaceId: string, queries: readonly DqlQuery[], signal?: AbortSignal): Promise<QueryOutcome[]> {
  const out: QueryOutcome[] = new Array<QueryOutcome>(queries.length);
  let pending = queries.map((_, i) => i);
  while (pending.length > 0) {
    try {
      const res = await queryRaw(workspaceId, { queries: pending.map((i) => queries[i]) }, signal);
      pending.forEach((i, k) => (out[i] = { result: res.content[k] ?? { series: [] } }));
      return out;
    } catch (err) {
      if (!isQueryError(err)) throw err;
      if (pending.length === 1) {
        out[pending[0]] = { error: err };
        return out;
      }
      const refused = refusedQuery(err, pending.length);
      if (!refused) {
        const alone = await Promise.all(pending.map((i) => queryEach(workspaceId, [queries[i]], signal)));
        pending.forEach((i, k) => (out[i] = alone[k][0]));
        return out;
      }
      out[pending[refused.index]] = { error: refused.error };
      pending = pending.filter((_, k) => k !== refused.index);
    }
  }
  return out;
}

/** Queries one request may hold (vigil-storage's limit). */
export const MAX_QUERIES_PER_REQUEST = 16;

interface Waiting {
  request: DqlRequest;
  signal?: AbortSignal;
  settled: boolean;
  resolve: (res: DqlResponse) => void;
  reject: (err: unknown) => void;
}

const waiting = new Map<string, Waiting[]>();

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The query was cancelled", "AbortError");
}

/**
 * `queryRaw`, sent together with the other calls made in the same moment for the same
 * workspace: a dashboard's panels ask at once, and one request answers them all (the storage
 * runs its queries side by side) instead of a browser sending them six at a time. Each caller
 * gets the answers to its own queries. When the shared request is refused because of one query
 * (a DQL error) or runs out of time, each caller's queries are sent again on their own, so each
 * gets its own answer or error; a storage failure fails them all.
 */
export function queryRawBatched(workspaceId: string, request: DqlRequest, signal?: AbortSignal): Promise<DqlResponse> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const onlyQueries = Object.keys(request).every((k) => k === "queries");
  if (!onlyQueries || request.queries.length > MAX_QUERIES_PER_REQUEST) return queryRaw(workspaceId, request, signal);
  return new Promise((resolve, reject) => {
    const w: Waiting = { request, signal, settled: false, resolve, reject };
    signal?.addEventListener(
      "abort",
      () => {
        if (w.settled) return;
        w.settled = true;
        reject(abortError(signal));
      },
      { once: true },
    );
    let list = waiting.get(workspaceId);
    if (!list) {
      list = [];
      waiting.set(workspaceId, list);
      setTimeout(() => flush(workspaceId), 0);
    }
    list.push(w);
  });
}

function flush(workspaceId: string): void {
  const list = (waiting.get(workspaceId) ?? []).filter((w) => !w.settled);
  waiting.delete(workspaceId);
  // callers stay whole; a request holds at most MAX_QUERIES_PER_REQUEST queries
  let batch: Waiting[] = [];
  let size = 0;
  for (const w of list) {
    if (size + w.request.queries.length > MAX_QUERIES_PER_REQUEST) {
      void send(workspaceId, batch);
      batch = [];
      size = 0;
    }
    batch.push(w);
    size += w.request.queries.length;
  }
  if (batch.length > 0) void send(workspaceId, batch);
}

function settle(w: Waiting, outcome: { res: DqlResponse } | { err: unknown }): void {
  if (w.settled) return;
  w.settled = true;
  if ("res" in outcome) w.resolve(outcome.res);
  else w.reject(outcome.err);
}

async function send(workspaceId: string, batch: Waiting[]): Promise<void> {
  if (batch.length === 1) {
    const [w] = batch;
    await queryRaw(workspaceId, w.request, w.signal).then(
      (res) => settle(w, { res }),
      (err: unknown) => settle(w, { err }),
    );
    return;
  }
  // the shared request stops only when every caller has stopped waiting
  const shared = new AbortController();
  for (const w of batch) {
    w.signal?.addEventListener("abort", () => batch.every((b) => b.settled) && shared.abort(), { once: true });
  }
  try {
    const res = await queryRaw(workspaceId, { queries: batch.flatMap((w) => w.request.queries) }, shared.signal);
    let at = 0;
    for (const w of batch) {
      const n = w.request.queries.length;
      settle(w, { res: { ...res, content: res.content.slice(at, at + n) } });
      at += n;
    }
  } catch (err) {
    // a query refused, or the shared time budget spent: each caller's own request decides
    if (err instanceof ApiError && err.isDqlError && (err.status < 500 || err.status === 504)) {
      await Promise.all(batch.filter((w) => !w.settled).map((w) => send(workspaceId, [w])));
      return;
    }
    for (const w of batch) settle(w, { err });
  }
}

/** `{"status": "success", "data": ["a", "b"]}`: a Prometheus list answer's strings. */
function promStrings(body: unknown): string[] {
  const data = typeof body === "object" && body !== null ? (body as { data?: unknown }).data : undefined;
  return Array.isArray(data) ? data.filter((v): v is string => typeof v === "string") : [];
}

/** Label names of the workspace's series (those matching `match` when given), PromQL's `labels`. */
export async function promLabels(workspaceId: string, match?: string, signal?: AbortSignal): Promise<string[]> {
  const res = await queryPrometheusLabelsGet({
    path: { workspace_id: workspaceId },
    query: match ? { "match[]": [match] } : undefined,
    signal,
    throwOnError: true,
  });
  return promStrings(res.data);
}

/** Values of `label` (`__name__`: metric names) over the workspace's series (matching `match`). */
export async function promLabelValues(workspaceId: string, label: string, match?: string, signal?: AbortSignal): Promise<string[]> {
  const res = await queryPrometheusLabelValuesGet({
    path: { workspace_id: workspaceId, label_name: label },
    query: match ? { "match[]": [match] } : undefined,
    signal,
    throwOnError: true,
  });
  return promStrings(res.data);
}
