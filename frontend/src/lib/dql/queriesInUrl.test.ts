import { describe, expect, it } from "vitest";
import { DEFAULT_QUERY } from "./dql";
import { queriesFromSearch, withQueries } from "./queriesInUrl";

const read = (search: string) => queriesFromSearch(new URLSearchParams(search));
const write = (search: string, queries: Parameters<typeof withQueries>[1]): string =>
  decodeURIComponent(withQueries(new URLSearchParams(search), queries).toString()).replaceAll("+", " ");

const CPU = "M::cpu:(avg(usage_user)) BY host";
const MEM = "M::mem:(avg(used_percent)) BY host";

describe("Explore's queries in the link", () => {
  it("opens an old link of one query exactly as before", () => {
    expect(read("")).toEqual([{ ref_id: "A", query: DEFAULT_QUERY }]);
    expect(read(`q=${encodeURIComponent(CPU)}&from=now-1h`)).toEqual([{ ref_id: "A", query: CPU }]);
    expect(read(`q=${encodeURIComponent(CPU)}&legend=${encodeURIComponent("{{host}} user")}`)).toEqual([
      { ref_id: "A", query: CPU, legend_format: "{{host}} user" },
    ]);
    // a legend without a query names the default query's series, as it did
    expect(read("legend=x")).toEqual([{ ref_id: "A", query: DEFAULT_QUERY, legend_format: "x" }]);
    // an empty query stays empty (nothing runs until one is written)
    expect(read("q=")).toEqual([{ ref_id: "A", query: "" }]);
  });

  it("carries each query's language, PromQL ones marked lang", () => {
    const promql = 'sum by (mode) (rate(node_cpu_seconds_total{instance="$node"}[5m]))';
    const queries = [
      { ref_id: "A", query: CPU },
      { ref_id: "B", query: promql, language: "promql" as const, legend_format: "{{mode}}" },
    ];
    const link = withQueries(new URLSearchParams("from=now-1h"), queries);
    expect([...link.keys()]).toEqual(["from", "q", "q.B", "lang.B", "legend.B"]);
    expect(queriesFromSearch(link)).toEqual(queries);
    // a lone PromQL query: `lang=promql` beside `q`
    const one = withQueries(new URLSearchParams(), [{ ref_id: "A", query: "up", language: "promql" }]);
    expect(one.toString()).toBe("q=up&lang=promql");
    expect(read("q=up&lang=promql")).toEqual([{ ref_id: "A", query: "up", language: "promql" }]);
    // DQL is said by saying nothing; an unknown language reads as DQL
    expect(write("", [{ ref_id: "A", query: CPU, language: "dql" }])).toBe(`q=${CPU}`);
    expect(read("q=up&lang=sql")).toEqual([{ ref_id: "A", query: "up" }]);
  });

  it("reads several queries in the order of the link, with their legends and hidden ones", () => {
    const params = new URLSearchParams();
    params.append("q.C", "M::disk:(max(used_percent))");
    params.append("q", CPU);
    params.append("legend", "cpu {{host}}");
    params.append("q.B", MEM);
    params.append("legend.B", "mem {{host}}");
    params.append("hide", "B");
    params.append("hide", "C");
    expect(queriesFromSearch(params)).toEqual([
      { ref_id: "C", query: "M::disk:(max(used_percent))", hidden: true },
      { ref_id: "A", query: CPU, legend_format: "cpu {{host}}" },
      { ref_id: "B", query: MEM, legend_format: "mem {{host}}", hidden: true },
    ]);
  });

  it("has no query A when the link names only others, and ignores what is not a query", () => {
    expect(read(`q.B=${encodeURIComponent(MEM)}`)).toEqual([{ ref_id: "B", query: MEM }]);
    // a reference seen twice keeps the first; odd keys are not queries
    expect(read("q=a&q.A=b&q.b=c&q.=d&q.TOOLONG=e&qq=f")).toEqual([{ ref_id: "A", query: "a" }]);
  });

  it("keeps at most ten queries", () => {
    const params = new URLSearchParams();
    for (const ref of "ABCDEFGHIJKL") params.append(ref === "A" ? "q" : `q.${ref}`, ref);
    expect(queriesFromSearch(params).map((q) => q.ref_id).join("")).toBe("ABCDEFGHIJ");
  });

  it("writes one query as links always had it, in its place among the other parameters", () => {
    expect(write(`from=now-1h&q=old&view=bar&legend=x`, [{ ref_id: "A", query: CPU, legend_format: "{{host}}" }])).toBe(
      `from=now-1h&q=${CPU}&legend={{host}}&view=bar`,
    );
    expect(write("from=now-1h", [{ ref_id: "A", query: CPU }])).toBe(`from=now-1h&q=${CPU}`);
    // the default query alone is no parameter at all
    expect(write("q=old&to=now", [{ ref_id: "A", query: DEFAULT_QUERY }])).toBe("to=now");
  });

  it("writes several queries, their legends and the hidden ones, and reads them back the same", () => {
    const queries = [
      { ref_id: "A", query: DEFAULT_QUERY, legend_format: "cpu {{host}}" },
      { ref_id: "B", query: MEM, hidden: true },
      { ref_id: "D", query: "" },
    ];
    const search = withQueries(new URLSearchParams("to=now&q=x&q.C=y&hide=C"), queries);
    expect(decodeURIComponent(search.toString()).replaceAll("+", " ")).toBe(
      `to=now&q=${DEFAULT_QUERY}&legend=cpu {{host}}&q.B=${MEM}&q.D=&hide=B`,
    );
    expect(queriesFromSearch(search)).toEqual(queries);
    // without query A
    const withoutA = withQueries(new URLSearchParams(), [{ ref_id: "B", query: DEFAULT_QUERY }]);
    expect(withoutA.toString()).toContain("q.B=");
    expect(queriesFromSearch(withoutA)).toEqual([{ ref_id: "B", query: DEFAULT_QUERY }]);
  });
});
