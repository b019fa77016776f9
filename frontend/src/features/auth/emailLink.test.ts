import { afterEach, describe, expect, it } from "vitest";
import { rememberReturnPath, takeReturnPath, tokenFromHash } from "./emailLink";

describe("tokenFromHash", () => {
  it("reads the token after #token=, and nothing else", () => {
    expect(tokenFromHash("#token=vge_abc-123_x")).toBe("vge_abc-123_x");
    expect(tokenFromHash("token=vge_abc")).toBe("vge_abc");
    expect(tokenFromHash("#other=1&token=vge_x")).toBe("vge_x");
    expect(tokenFromHash("")).toBe("");
    expect(tokenFromHash("#tok=vge_x")).toBe("");
  });
});

describe("the path to return to after signing up", () => {
  afterEach(() => window.localStorage.clear());

  it("keeps an app path once", () => {
    rememberReturnPath("/invite?code=vginv_x");
    expect(takeReturnPath()).toBe("/invite?code=vginv_x");
    expect(takeReturnPath()).toBe("/");
  });

  it("never keeps a path to another site", () => {
    for (const path of ["//evil.example.com/x", "https://evil.example.com/", "javascript:alert(1)"]) {
      rememberReturnPath(path);
      expect(takeReturnPath()).toBe("/");
    }
  });
});
