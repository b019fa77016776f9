import { describe, expect, it } from "vitest";
import { ApiError, toApiError } from "@/lib/apiError";
import { queryError } from "./queryErrors";

describe("queryError", () => {
  it("reads storage's refusal of a monitor's query: the message without `query:`, the range in bytes", () => {
    const err = toApiError(400, {
      detail: "query: line 1:44: unexpected token }",
      code: "dql.parse_error",
      field: "query",
      position: { line: 1, column: 44, start: 43, end: 44 },
    });
    const q = queryError(err);
    expect(q?.message).toBe("line 1:44: unexpected token }");
    expect(q?.code).toBe("dql.parse_error");
    expect(q?.range).toEqual({ start: 43, end: 44 });
  });

  it("is undefined for errors about something else", () => {
    expect(queryError(toApiError(422, { detail: "the workspace has all the monitors it may", code: "limit_exceeded" }))).toBeUndefined();
    expect(queryError(new ApiError(503, "storage down", "storage_unavailable"))).toBeUndefined();
    expect(queryError(new Error("x"))).toBeUndefined();
  });
});
