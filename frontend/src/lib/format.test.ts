import { describe, expect, it } from "vitest";
import { formatBytes, formatNumber } from "./format";

describe("formatBytes", () => {
  it("uses binary units", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(10_485_760)).toBe("10 MiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
  });
});

describe("formatNumber", () => {
  it("groups thousands and keeps at most two decimals", () => {
    expect(formatNumber(1_234_567)).toBe("1,234,567");
    expect(formatNumber(0.125)).toBe("0.13");
  });
});
