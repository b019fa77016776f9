import { describe, expect, it } from "vitest";
import { describeAction, describeUserAgent, isWarning } from "./securityLog";

describe("describeUserAgent", () => {
  it.each([
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome on Linux"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Windows"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", "Safari on macOS"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", "Safari on iOS"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge on Windows"],
    ["curl/8.5.0", "curl"],
    ["python-httpx/0.28.1", "python-httpx"],
    [null, "Unknown device"],
    ["grafana/11", "grafana/11"],
  ])("%s reads %s", (ua, want) => {
    expect(describeUserAgent(ua)).toBe(want);
  });
});

describe("describeAction", () => {
  it("says what happened, and flags what to look at", () => {
    expect(describeAction("user.login")).toBe("Signed in");
    expect(describeAction("user.refresh_reuse")).toMatch(/may have been stolen/);
    expect(isWarning("user.login_failed")).toBe(true);
    expect(isWarning("user.login")).toBe(false);
    expect(describeAction("user.something_new")).toBe("user.something_new");
  });
});
