import { afterEach, describe, expect, it, vi } from "vitest";
import { endSession, freshToken, getToken, RENEW_BEFORE_MS, sessionExpired, setSession } from "./session";

const T0 = 1_700_000_000_000;
const tokens = (n: number) => ({ access_token: `access-${n}`, refresh_token: `refresh-${n}`, expires_in: 900 });

afterEach(() => window.sessionStorage.clear());

describe("freshToken", () => {
  it("sends the current token while it has time left", async () => {
    setSession(tokens(1), T0);
    const renew = vi.fn();
    expect(await freshToken(renew, T0 + 900_000 - RENEW_BEFORE_MS - 1)).toBe("access-1");
    expect(renew).not.toHaveBeenCalled();
  });

  it("renews shortly before expiry, once for requests sent together, rotating the refresh token", async () => {
    setSession(tokens(1), T0);
    let finish: (t: ReturnType<typeof tokens>) => void = () => {};
    const renew = vi.fn(() => new Promise<ReturnType<typeof tokens>>((r) => (finish = r)));
    const later = T0 + 900_000 - RENEW_BEFORE_MS;
    const sent = [freshToken(renew, later), freshToken(renew, later), freshToken(renew, later)];
    finish(tokens(2));
    expect(await Promise.all(sent)).toEqual(["access-2", "access-2", "access-2"]);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(renew).toHaveBeenCalledWith("refresh-1");
    expect(getToken()).toBe("access-2");
    // the next renewal uses the rotated refresh token, relative to the renewal's own time
    const renew2 = vi.fn(async () => tokens(3));
    expect(await freshToken(renew2, Date.now() + 900_000)).toBe("access-3");
    expect(renew2).toHaveBeenCalledWith("refresh-2");
  });

  it("ends the session, as expired, when the server refuses the refresh token", async () => {
    setSession(tokens(1), T0);
    expect(await freshToken(async () => undefined, T0 + 900_000)).toBeUndefined();
    expect(getToken()).toBeNull();
    expect(sessionExpired()).toBe(true);
    setSession(tokens(2), T0);
    expect(sessionExpired()).toBe(false);
  });

  it("keeps the session when the renewal fails otherwise (network)", async () => {
    setSession(tokens(1), T0);
    const failing = async () => {
      throw new TypeError("Failed to fetch");
    };
    expect(await freshToken(failing, T0 + 900_000)).toBe("access-1");
    expect(getToken()).toBe("access-1");
    expect(sessionExpired()).toBe(false);
  });

  it("does not bring back a session signed out of during the renewal", async () => {
    setSession(tokens(1), T0);
    let finish: (t: ReturnType<typeof tokens>) => void = () => {};
    const pending = freshToken(() => new Promise((r) => (finish = r)), T0 + 900_000);
    endSession();
    finish(tokens(2));
    expect(await pending).toBeUndefined();
    expect(getToken()).toBeNull();
    expect(sessionExpired()).toBe(false);
  });

  it("sends a token without a known expiry as it is", async () => {
    window.sessionStorage.setItem("vigil.session.token", "bare");
    const renew = vi.fn();
    expect(await freshToken(renew, T0)).toBe("bare");
    expect(renew).not.toHaveBeenCalled();
  });
});
