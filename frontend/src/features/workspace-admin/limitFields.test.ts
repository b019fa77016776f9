import { describe, expect, it } from "vitest";
import type { Limits } from "./api";
import { diffLimits, formatBytes, LIMIT_FIELDS, toDraft } from "./limitFields";

const limits: Limits = {
  ingest_points_per_second: 10_000,
  ingest_burst: 50_000,
  max_body_bytes: 10_485_760,
  active_series: 100_000,
  query_timeout_seconds: 30,
  max_points_per_query: 5_000_000,
  retention_days: 30,
  max_monitors: 100,
  min_monitor_interval_seconds: 10,
  max_notifications_per_hour: 200,
};

describe("diffLimits", () => {
  it("returns only what changed, grouping digits allowed", () => {
    const draft = { ...toDraft(limits), ingest_points_per_second: "20,000", retention_days: " 7 " };
    expect(diffLimits(limits, draft)).toEqual({
      changes: { ingest_points_per_second: 20_000, retention_days: 7 },
      errors: {},
    });
    expect(diffLimits(limits, toDraft(limits)).changes).toEqual({});
  });

  it("names the field and the bounds the backend accepts", () => {
    const draft = { ...toDraft(limits), query_timeout_seconds: "0", max_body_bytes: "12.5", active_series: "" };
    const { changes, errors } = diffLimits(limits, draft);
    expect(changes).toEqual({});
    expect(errors.query_timeout_seconds).toBe("Query timeout must be between 1 and 600 s.");
    expect(errors.max_body_bytes).toBe("Request body size must be a whole number.");
    expect(errors.active_series).toBe("Active series must be a whole number.");
  });

  it("covers every limit the API returns", () => {
    expect(LIMIT_FIELDS.map((f) => f.key).sort()).toEqual(Object.keys(limits).sort());
  });
});

describe("formatBytes", () => {
  it("uses binary units", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(10_485_760)).toBe("10 MiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
  });
});
