import { afterEach, describe, expect, it } from "vitest";
import { authChangePassword, authReadMe } from "@/client/sdk.gen";
import { client } from "./apiClient";
import { getToken, sessionExpired, setSession } from "./session";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** Answers requests by path and records what was sent. */
function serve(answers: Record<string, (req: Request) => Response>) {
  const sent: { path: string; auth: string | null; body: string }[] = [];
  client.setConfig({
    baseUrl: "http://vigil.test",
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      const path = new URL(req.url).pathname;
      sent.push({ path, auth: req.headers.get("Authorization"), body: await req.clone().text() });
      const answer = answers[path];
      return answer ? answer(req) : json(404, { detail: "not found", code: "not_found" });
    },
  });
  return sent;
}

const me = { id: "u1", email: "a@example.com", full_name: null };

afterEach(() => {
  window.sessionStorage.clear();
  client.setConfig({ baseUrl: "", fetch: globalThis.fetch });
});

describe("the API client's session", () => {
  it("renews a token about to expire before sending the request, with the new token", async () => {
    setSession({ access_token: "old", refresh_token: "r1", expires_in: 30 });
    const sent = serve({
      "/api/v1/auth/refresh": () => json(200, { access_token: "new", refresh_token: "r2", expires_in: 900, user: me }),
      "/api/v1/auth/me": () => json(200, me),
    });
    await authReadMe({ throwOnError: true });
    expect(sent.map((s) => s.path)).toEqual(["/api/v1/auth/refresh", "/api/v1/auth/me"]);
    expect(sent[0].auth).toBeNull();
    expect(JSON.parse(sent[0].body)).toEqual({ refresh_token: "r1" });
    expect(sent[1].auth).toBe("Bearer new");
    expect(getToken()).toBe("new");
  });

  it("ends the session, as expired, when the server refuses its token", async () => {
    setSession({ access_token: "t", refresh_token: "r", expires_in: 900 });
    serve({ "/api/v1/auth/me": () => json(401, { detail: "Access token is invalid or expired", code: "invalid_token" }) });
    await expect(authReadMe({ throwOnError: true })).rejects.toThrow();
    expect(getToken()).toBeNull();
    expect(sessionExpired()).toBe(true);
  });

  it("keeps the session when a 401 is about a password typed wrong", async () => {
    setSession({ access_token: "t", refresh_token: "r", expires_in: 900 });
    serve({
      "/api/v1/auth/password": () => json(401, { detail: "Current password is incorrect", code: "invalid_credentials" }),
    });
    await expect(
      authChangePassword({
        body: { current_password: "wrong", new_password: "a new long passphrase" },
        throwOnError: true,
      }),
    ).rejects.toThrow("Current password is incorrect");
    expect(getToken()).toBe("t");
  });
});
