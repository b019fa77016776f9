import { describe, expect, it } from "vitest";
import { isServiceToken, KEY_SCOPES, tokenExample } from "./keyScopes";

describe("key scopes", () => {
  it("tells service tokens from agent keys", () => {
    expect(Object.keys(KEY_SCOPES)).toEqual(["ingest", "query", "editor", "admin"]);
    expect(isServiceToken("editor") && isServiceToken("admin")).toBe(true);
    expect(isServiceToken("ingest") || isServiceToken("query")).toBe(false);
    expect(KEY_SCOPES.admin.help).toContain("not keys or tokens");
  });

  it("shows a first request with a token, the token kept out of the command", () => {
    expect(tokenExample("http://127.0.0.1:8000", "w1")).toBe(
      'curl -H "Authorization: Bearer $VIGIL_TOKEN" http://127.0.0.1:8000/api/v1/workspaces/w1/dashboards',
    );
  });
});
