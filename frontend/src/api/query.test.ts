import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { client } from "@/client/client.gen";
import { ApiError } from "@/lib/apiError";
import type { DqlResponse } from "@/lib/dql/dql";
import { MAX_QUERIES_PER_REQUEST, queryEach, queryRawBatched } from "./query";

/**
 * Answers as the DQL API does (DQL.md §2): one content entry per query, naming the query;
 * a query containing "bad" fails the whole request with a DQL error, "down" with a 500.
 */
async function answer(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(input, init);
  const body = (await request.json()) as { queries: { query: string }[] };
  const json = (status: number, doc: unknown): Response =>
    new Response(JSON.stringify(doc), { status, headers: { "Content-Type": "application/json" } });
  const bad = body.queries.findIndex((q) => q.query.includes("bad"));
  if (bad >= 0) return json(400, { error_code: "dql.parse_error", message: `query ${bad + 1}: line 1:1: unexpected` });
  if (body.queries.some((q) => q.query.includes("down"))) return json(500, { error_code: "dql.storage_error", message: "down" });
  return json(200, { content: body.queries.map((q) => ({ series: [{ name: q.query, columns: ["time"], values: [] }] })) });
}

/** A fetch that notes each request's queries in `bodies`, then lets `answer` reply. */
function recordingFetch(bodies: string[][], answer: (req: Request) => Response | Promise<Response>) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = input instanceof Request ? input : new Request(input, init);
    const body = (await req.clone().json()) as { queries: { query: string }[] };
    bodies.push(body.queries.map((q) => q.query));
    return answer(req);
  };
}

const names = (res: DqlResponse): string[] => res.content.map((c) => c.series[0].name);
const request = (...queries: string[]) => ({ queries: queries.map((query) => ({ query })) });

describe("queryRawBatched", () => {
  const fetchSpy = vi.fn(answer);
  const bodies: string[][] = [];
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    bodies.length = 0;
    vi.stubGlobal("fetch", recordingFetch(bodies, fetchSpy));
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
    fetchSpy.mockClear();
  });

  it("sends the calls of one moment as one request and gives each caller its answers", async () => {
    const [a, b, c] = await Promise.all([
      queryRawBatched("w1", request("a1", "a2")),
      queryRawBatched("w1", request("b1")),
      queryRawBatched("w1", request("c1", "c2")),
    ]);
    expect(bodies).toEqual([["a1", "a2", "b1", "c1", "c2"]]);
    expect(names(a)).toEqual(["a1", "a2"]);
    expect(names(b)).toEqual(["b1"]);
    expect(names(c)).toEqual(["c1", "c2"]);
  });

  it("keeps workspaces apart and callers whole within the storage's limit per request", async () => {
    const half = Array.from({ length: MAX_QUERIES_PER_REQUEST / 2 + 1 }, (_, i) => `q${i}`);
    const [x, y, z] = await Promise.all([
      queryRawBatched("w1", request(...half)),
      queryRawBatched("w1", request(...half.map((q) => `${q}b`))),
      queryRawBatched("w2", request("other")),
    ]);
    expect(bodies).toHaveLength(3);
    expect(bodies).toContainEqual(half);
    expect(bodies).toContainEqual(["other"]);
    expect(names(x)).toEqual(half);
    expect(names(y)).toHaveLength(half.length);
    expect(names(z)).toEqual(["other"]);
  });

  it("asks again one caller at a time when a query of the shared request is refused", async () => {
    const results = await Promise.allSettled([
      queryRawBatched("w1", request("good1")),
      queryRawBatched("w1", request("bad")),
      queryRawBatched("w1", request("good2", "good3")),
    ]);
    expect(bodies[0]).toEqual(["good1", "bad", "good2", "good3"]);
    expect(bodies.slice(1)).toEqual(expect.arrayContaining([["good1"], ["bad"], ["good2", "good3"]]));
    expect(results[0]).toMatchObject({ status: "fulfilled" });
    expect(names((results[0] as PromiseFulfilledResult<DqlResponse>).value)).toEqual(["good1"]);
    const refused = (results[1] as PromiseRejectedResult).reason;
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toContain("query 1: line 1:1");
    expect(names((results[2] as PromiseFulfilledResult<DqlResponse>).value)).toEqual(["good2", "good3"]);
  });

  it("fails every caller when the storage fails, without asking again", async () => {
    const results = await Promise.allSettled([queryRawBatched("w1", request("down")), queryRawBatched("w1", request("ok"))]);
    expect(bodies).toEqual([["down", "ok"]]);
    for (const r of results) {
      expect(r.status).toBe("rejected");
      expect(((r as PromiseRejectedResult).reason as ApiError).status).toBe(500);
    }
  });

  it("lets one caller give up without cancelling the others", async () => {
    const stop = new AbortController();
    const gone = queryRawBatched("w1", request("a"), stop.signal);
    const kept = queryRawBatched("w1", request("b"));
    stop.abort();
    await expect(gone).rejects.toBeDefined();
    expect(names(await kept)).toEqual(["b"]);
    expect(bodies).toEqual([["b"]]);
  });
});

/**
 * Answers as vigil-storage does: all of a request's queries or none. The first query
 * containing "bad" refuses the request with its position in that query's text, named
 * `query N: ` when the request holds several; "vague" refuses it without naming one;
 * "slow" spends the request's time budget (504), "down" fails the store (500).
 */
async function storage(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(input, init);
  const body = (await request.json()) as { queries: { query: string }[] };
  const json = (status: number, doc: unknown): Response =>
    new Response(JSON.stringify(doc), { status, headers: { "Content-Type": "application/json" } });
  const several = body.queries.length > 1;
  const bad = body.queries.findIndex((q) => q.query.includes("bad"));
  if (bad >= 0) {
    const at = body.queries[bad].query.indexOf("bad");
    return json(400, {
      error_code: "dql.parse_error",
      message: `${several ? `query ${bad + 1}: ` : ""}line 1:${at + 1}: unexpected 'bad'`,
      position: { line: 1, column: at + 1, start: at, end: at + 3 },
    });
  }
  if (body.queries.some((q) => q.query.includes("vague"))) return json(400, { error_code: "dql.invalid_argument", message: "something is off" });
  if (body.queries.some((q) => q.query.includes("slow"))) return json(504, { error_code: "dql.timeout", message: "query 1: timed out" });
  if (body.queries.some((q) => q.query.includes("down"))) return json(500, { error_code: "dql.storage_error", message: "down" });
  return json(200, { content: body.queries.map((q) => ({ series: [{ name: q.query, columns: ["time"], values: [] }] })) });
}

describe("queryEach", () => {
  const bodies: string[][] = [];
  beforeEach(() => {
    client.setConfig({ baseUrl: "http://vigil.test" });
    bodies.length = 0;
    vi.stubGlobal("fetch", recordingFetch(bodies, storage));
  });
  afterEach(() => {
    client.setConfig({ baseUrl: "" });
    vi.unstubAllGlobals();
  });

  const run = (...queries: string[]) => queryEach("w1", queries.map((query) => ({ query })));
  const outcome = (o: Awaited<ReturnType<typeof run>>[number]) =>
    o.result ? o.result.series[0].name : `${o.error.code} ${o.error.message} @${o.error.range?.start}-${o.error.range?.end}`;

  it("runs every query in one request", async () => {
    expect((await run("a", "b", "c")).map(outcome)).toEqual(["a", "b", "c"]);
    expect(bodies).toEqual([["a", "b", "c"]]);
  });

  it("gives a refused query its own error, at its own position, and the others their results", async () => {
    const outcomes = await run("a", "x bad", "c", "bad y");
    expect(outcomes.map(outcome)).toEqual([
      "a",
      "dql.parse_error line 1:3: unexpected 'bad' @2-5",
      "c",
      "dql.parse_error line 1:1: unexpected 'bad' @0-3",
    ]);
    // one request more for each query the storage refused, never one per query
    expect(bodies).toEqual([
      ["a", "x bad", "c", "bad y"],
      ["a", "c", "bad y"],
      ["a", "c"],
    ]);
  });

  it("asks each query on its own when the error names none", async () => {
    expect((await run("a", "vague")).map(outcome)).toEqual(["a", "dql.invalid_argument something is off @undefined-undefined"]);
    expect(bodies).toEqual([["a", "vague"], ["a"], ["vague"]]);
  });

  it("rejects the run for an error that is not about a query's text", async () => {
    await expect(run("a", "slow")).rejects.toMatchObject({ status: 504, code: "dql.timeout" });
    await expect(run("down", "b")).rejects.toMatchObject({ status: 500 });
    expect(bodies).toEqual([["a", "slow"], ["down", "b"]]);
  });
});
