import { describe, expect, it } from "vitest";
import { ApiError, fieldErrors, readRange, toApiError, toUserMessage } from "./apiError";

describe("toApiError", () => {
  it("reads FastAPI detail and code", () => {
    const err = toApiError(404, { detail: "Workspace not found", code: "not_found" });
    expect(err.message).toBe("Workspace not found");
    expect(err.code).toBe("not_found");
    expect(err.status).toBe(404);
    expect(err.isDqlError).toBe(false);
  });

  it("joins validation errors with their field", () => {
    const err = toApiError(422, {
      detail: [{ loc: ["body", "email"], msg: "value is not a valid email address", type: "value_error" }],
    });
    expect(err.message).toBe("email: value is not a valid email address");
  });

  it("reads DQL error_code, message and a position range", () => {
    const err = toApiError(400, {
      error_code: "dql.parse_error",
      message: "1:9: unexpected '}'",
      position: { start: 8, end: 9 },
    });
    expect(err.isDqlError).toBe(true);
    expect(err.code).toBe("dql.parse_error");
    expect(err.message).toBe("1:9: unexpected '}'");
    expect(err.range).toEqual({ start: 8, end: 9 });
  });

  it("falls back to a sentence for the status when the body says nothing", () => {
    expect(toApiError(503, "<html>bad gateway</html>").message).toMatch(/temporarily unavailable/);
    expect(toApiError(418, null).message).toBe("Request failed (HTTP 418).");
  });
});

describe("readRange", () => {
  it("accepts pos/end, a bare number and a pair", () => {
    expect(readRange({ pos: 3, end: 7 })).toEqual({ start: 3, end: 7 });
    expect(readRange({ position: 5 })).toEqual({ start: 5, end: 5 });
    expect(readRange({ range: [2, 4] })).toEqual({ start: 2, end: 4 });
    expect(readRange({ position: -1 })).toBeUndefined();
    expect(readRange({})).toBeUndefined();
  });
});

describe("toUserMessage", () => {
  it("uses the API message, network errors and plain errors", () => {
    expect(toUserMessage(new ApiError(429, "ingest_points_per_second exceeded", "limit_exceeded"))).toBe(
      "ingest_points_per_second exceeded",
    );
    expect(toUserMessage(new TypeError("Failed to fetch"))).toMatch(/Cannot reach the server/);
    expect(toUserMessage(new Error("boom"))).toBe("boom");
    expect(toUserMessage(undefined)).toBe("Something went wrong.");
  });
});

describe("fieldErrors", () => {
  it("maps the API's validation errors to their fields, without Pydantic's prefix", () => {
    const err = toApiError(422, {
      detail: "body.name: Value error, name must not be blank",
      code: "validation_error",
      errors: [
        { loc: ["body", "name"], msg: "Value error, name must not be blank", type: "value_error" },
        { loc: ["body", "name"], msg: "String should have at most 100 characters", type: "string_too_long" },
        { loc: ["body", "limits", "max_series"], msg: "Input should be greater than 0", type: "greater_than" },
      ],
    });
    expect(fieldErrors(err)).toEqual({
      name: "Name must not be blank",
      "limits.max_series": "Input should be greater than 0",
    });
  });

  it("reads FastAPI's own detail list too", () => {
    const err = toApiError(422, { detail: [{ loc: ["body", "email"], msg: "value is not a valid email address" }] });
    expect(fieldErrors(err)).toEqual({ email: "Value is not a valid email address" });
  });

  it("is empty for errors that are not about fields", () => {
    expect(fieldErrors(toApiError(404, { detail: "Workspace not found", code: "not_found" }))).toEqual({});
    expect(fieldErrors(toApiError(422, { detail: [{ loc: ["body"], msg: "Field required" }] }))).toEqual({});
    expect(fieldErrors(new TypeError("Failed to fetch"))).toEqual({});
  });
});
