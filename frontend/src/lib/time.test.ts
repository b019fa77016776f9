import { describe, expect, it } from "vitest";
import {
  formatDuration,
  fromZoneInput,
  toZoneInput,
  zoneOffsetMs,
  shiftTimeRange,
  zoomOutTimeRange,
  describeTimeRange,
  formatAxisTime,
  formatDateTime,
  parseDuration,
  resolveTimeRange,
  timeZoneLabel,
  utcOffsetLabel,
} from "./time";

const NOW = Date.UTC(2026, 10, 21, 6, 0, 0);

describe("parseDuration", () => {
  it.each([
    ["15m", 900_000],
    ["1h30m", 5_400_000],
    ["90s", 90_000],
    ["7d", 604_800_000],
    ["2w", 1_209_600_000],
  ])("%s = %d ms", (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(["", "15", "m", "15x", "15m garbage", "-5m"])("refuses %j", (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );
});

describe("moving and zooming out a range", () => {
  const now = Date.UTC(2026, 10, 22, 12, 0);
  const H = 3_600_000;

  it("writes durations in the largest unit that divides them", () => {
    expect([formatDuration(2 * H), formatDuration(90 * 60_000), formatDuration(86_400_000 * 60), formatDuration(45_000), formatDuration(1500)]).toEqual(["2h", "90m", "60d", "45s", "1500ms"]);
  });

  it("moves half a range back, as epoch milliseconds", () => {
    expect(shiftTimeRange({ from: "now-1h", to: "now" }, -1, now)).toEqual({ from: String(now - 1.5 * H), to: String(now - 0.5 * H) });
  });

  it("moves half a range later, up to now, where it follows now again; not past it", () => {
    const earlier = { from: String(now - 4 * H), to: String(now - 2 * H) };
    expect(shiftTimeRange(earlier, 1, now)).toEqual({ from: String(now - 3 * H), to: String(now - H) });
    expect(shiftTimeRange({ from: String(now - 2.5 * H), to: String(now - 0.5 * H) }, 1, now)).toEqual({ from: "now-2h", to: "now" });
    expect(shiftTimeRange({ from: "now-1h", to: "now" }, 1, now)).toBeUndefined();
  });

  it("zooms out to twice the length around the middle, ending now when it would reach past it", () => {
    expect(zoomOutTimeRange({ from: String(now - 10 * H), to: String(now - 8 * H) }, now)).toEqual({
      from: String(now - 11 * H),
      to: String(now - 7 * H),
    });
    expect(zoomOutTimeRange({ from: "now-1h", to: "now" }, now)).toEqual({ from: "now-2h", to: "now" });
    expect(zoomOutTimeRange({ from: "now-15m", to: "now" }, now)).toEqual({ from: "now-30m", to: "now" });
    expect(zoomOutTimeRange({ from: String(now - 3 * H), to: String(now - H) }, now)).toEqual({ from: "now-4h", to: "now" });
  });
});

describe("resolveTimeRange", () => {
  it("resolves relative and absolute ends", () => {
    expect(resolveTimeRange({ from: "now-15m", to: "now" }, NOW)).toEqual([NOW - 900_000, NOW]);
    expect(resolveTimeRange({ from: "1763700000000", to: "1763703600000" }, NOW)).toEqual([
      1763700000000, 1763703600000,
    ]);
  });

  it("names the end that is wrong", () => {
    expect(() => resolveTimeRange({ from: "yesterday", to: "now" }, NOW)).toThrow('Start time "yesterday"');
    expect(() => resolveTimeRange({ from: "now", to: "now-1h" }, NOW)).toThrow("must be before its end");
  });
});

describe("time zone formatting", () => {
  it("shows the zone and its offset", () => {
    expect(utcOffsetLabel("UTC", NOW)).toBe("UTC+00:00");
    expect(timeZoneLabel("Asia/Kolkata", NOW)).toBe("Asia/Kolkata (UTC+05:30)");
    expect(timeZoneLabel("America/New_York", NOW)).toBe("America/New_York (UTC-05:00)");
  });

  it("formats in the given zone", () => {
    expect(formatDateTime(NOW, "UTC")).toBe("2026-11-21 06:00:00");
    expect(formatDateTime(NOW, "Asia/Tokyo")).toBe("2026-11-21 15:00:00");
    expect(formatAxisTime(NOW, 3_600_000, "Europe/Paris")).toBe("07:00");
    expect(formatAxisTime(NOW, 7 * 86_400_000, "Europe/Paris")).toBe("11-21 07:00");
  });

  it("describes presets and absolute ranges", () => {
    expect(describeTimeRange({ from: "now-15m", to: "now" })).toBe("Last 15 minutes");
    expect(describeTimeRange({ from: String(NOW - 3_600_000), to: String(NOW) }, "UTC")).toBe(
      "2026-11-21 05:00:00 → 2026-11-21 06:00:00",
    );
  });
});

describe("times in another zone", () => {
  it("reads a datetime-local value as a wall clock in the zone, and writes it back", () => {
    const t = Date.UTC(2026, 10, 22, 9, 30);
    expect(toZoneInput(t, "UTC")).toBe("2026-11-22T09:30");
    expect(toZoneInput(t, "Asia/Kolkata")).toBe("2026-11-22T15:00");
    expect(fromZoneInput("2026-11-22T09:30", "UTC")).toBe(t);
    expect(fromZoneInput("2026-11-22T15:00", "Asia/Kolkata")).toBe(t);
    // summer time: Paris is UTC+2 in July, UTC+1 in November
    expect(fromZoneInput("2026-07-01T12:00", "Europe/Paris")).toBe(Date.UTC(2026, 6, 1, 10, 0));
    expect(fromZoneInput("2026-11-22T12:00", "Europe/Paris")).toBe(Date.UTC(2026, 10, 22, 11, 0));
    expect(zoneOffsetMs(t, "America/New_York")).toBe(-5 * 3_600_000);
    expect(fromZoneInput("22/11/2026", "UTC")).toBeUndefined();
  });
});
