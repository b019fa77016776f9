import { csvFileName, resultCsv } from "./resultCsv";

describe("resultCsv", () => {
  it("writes one row per point, tags and values in columns of their own, times in UTC", () => {
    const csv = resultCsv({
      series: [
        { name: "cpu", tags: { host: "web-1" }, columns: ["time", "avg(usage)"], values: [[1795338240000, 12.5], [1795338300000, null]] },
        { name: "cpu", tags: { host: "db, primary", region: "eu" }, columns: ["time", "avg(usage)", "max(usage)"], values: [[1795338240000, 3, 9]] },
      ],
    });
    expect(csv).toBe(
      [
        "series,host,region,time,avg(usage),max(usage)",
        "cpu,web-1,,2026-11-22T09:04:00.000Z,12.5,",
        "cpu,web-1,,2026-11-22T09:05:00.000Z,,",
        'cpu,"db, primary",eu,2026-11-22T09:04:00.000Z,3,9',
        "",
      ].join("\n"),
    );
  });

  it("keeps a header for an empty result, and values of series without a time column", () => {
    expect(resultCsv({ series: [] })).toBe("series,time\n");
    expect(resultCsv({ series: [{ name: "m", columns: ["last(x)"], values: [["a\"b"]] }] })).toBe(
      'series,time,last(x)\nm,,"a""b"\n',
    );
  });
});

describe("resultCsv of several queries", () => {
  it("says which query each row came from, first", () => {
    const series = [
      { name: "cpu", tags: { host: "a" }, columns: ["time", "avg(usage)"], values: [[0, 1]] },
      { name: "mem", tags: { host: "a" }, columns: ["time", "avg(used)"], values: [[0, 2]] },
    ];
    expect(resultCsv({ series }, ["A", "C"])).toBe(
      [
        "query,series,host,time,avg(usage),avg(used)",
        "A,cpu,a,1970-01-01T00:00:00.000Z,1,",
        "C,mem,a,1970-01-01T00:00:00.000Z,,2",
        "",
      ].join("\n"),
    );
  });
});

describe("csvFileName", () => {
  it("names the file after the title and the minute, in UTC", () => {
    expect(csvFileName("CPU · usage (%)", new Date(Date.UTC(2026, 10, 22, 10, 4, 31)))).toBe(
      "cpu-usage-2026-11-22T10-04Z.csv",
    );
    expect(csvFileName("…", new Date(0))).toBe("data-1970-01-01T00-00Z.csv");
  });
});
