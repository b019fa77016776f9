// The browser's own zone is formatted from Date's local fields, other zones through Intl: both
// must agree. This file runs in a zone with daylight saving time (vitest isolates modules per
// file, so the zone is set before time.ts first asks for it).
vi.stubEnv("TZ", "America/New_York");

import { formatAxisTime, formatDateTime, localTimeZone, timeZoneLabel, utcOffsetLabel } from "./time";

function viaIntl(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(ms);
  const get = (t: string): string => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}:${get("second")}`;
}

function offsetViaIntl(ms: number, timeZone: string): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(ms)
    .find((p) => p.type === "timeZoneName")?.value;
  return `UTC${name === "GMT" ? "+00:00" : name?.slice(3)}`;
}

describe("times in the browser's own zone", () => {
  // around both 2026 clock changes in New York, a leap day and the epoch
  const instants = [
    Date.UTC(2026, 2, 8, 6, 59, 59),
    Date.UTC(2026, 2, 8, 7, 0, 0),
    Date.UTC(2026, 10, 1, 5, 59, 59),
    Date.UTC(2026, 10, 1, 6, 0, 0),
    Date.UTC(2028, 1, 29, 23, 30, 5),
    0,
    Date.UTC(2026, 10, 21, 6, 0, 0),
  ];

  it("knows the zone", () => {
    expect(localTimeZone()).toBe("America/New_York");
  });

  it.each(instants)("formats %d as Intl does", (ms) => {
    expect(formatDateTime(ms)).toBe(viaIntl(ms, "America/New_York"));
    expect(formatDateTime(ms, localTimeZone(), false)).toBe(viaIntl(ms, "America/New_York").slice(0, 16));
    expect(utcOffsetLabel(localTimeZone(), ms)).toBe(offsetViaIntl(ms, "America/New_York"));
  });

  it("labels the zone with its offset at the time shown", () => {
    expect(timeZoneLabel(localTimeZone(), Date.UTC(2026, 6, 1))).toBe("America/New_York (UTC-04:00)");
    expect(timeZoneLabel(localTimeZone(), Date.UTC(2026, 11, 1))).toBe("America/New_York (UTC-05:00)");
    expect(formatAxisTime(Date.UTC(2026, 6, 1, 12), 3_600_000)).toBe("08:00");
  });

  it("still formats other zones", () => {
    expect(formatDateTime(Date.UTC(2026, 10, 21, 6), "Asia/Tokyo")).toBe("2026-11-21 15:00:00");
    expect(utcOffsetLabel("Asia/Kolkata", 0)).toBe("UTC+05:30");
  });
});
