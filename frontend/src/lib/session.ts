/**
 * The signed-in user's session: a short-lived bearer token (15 minutes by default) and the
 * refresh token that renews it. Kept in sessionStorage so a reload keeps the session but
 * closing the tab ends it; components subscribe through `useSyncExternalStore`.
 *
 * Every API request asks `freshToken()`, which renews the bearer token shortly before it
 * expires (one renewal at a time, the refresh token rotating with it), so a session lasts as
 * long as its refresh token instead of 15 minutes.
 */
const KEY = "vigil.session.token";
const REFRESH_KEY = "vigil.session.refresh";
const EXPIRES_KEY = "vigil.session.expires";
const ENDED_KEY = "vigil.session.ended";

/** Renew this long before the bearer token expires (clock skew, a slow request). */
export const RENEW_BEFORE_MS = 60_000;

/** What the login, sign-up and refresh endpoints answer. */
export interface SessionTokens {
  access_token: string;
  refresh_token: string;
  /** seconds */
  expires_in: number;
}

const listeners = new Set<() => void>();

function read(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function notify(): void {
  listeners.forEach((l) => l());
}

export function getToken(): string | null {
  return read(KEY);
}

/** Starts a session (sign-in, sign-up) or continues it with renewed tokens. */
export function setSession(tokens: SessionTokens, now = Date.now()): void {
  const s = window.sessionStorage;
  s.setItem(KEY, tokens.access_token);
  s.setItem(REFRESH_KEY, tokens.refresh_token);
  s.setItem(EXPIRES_KEY, String(now + tokens.expires_in * 1000));
  s.removeItem(ENDED_KEY);
  notify();
}

/**
 * Ends the session on this tab. `expired`: the server no longer accepts it (the login page
 * then says so), rather than the user signing out.
 */
export function endSession({ expired = false }: { expired?: boolean } = {}): void {
  const s = window.sessionStorage;
  [KEY, REFRESH_KEY, EXPIRES_KEY].forEach((k) => s.removeItem(k));
  if (expired) s.setItem(ENDED_KEY, "expired");
  else s.removeItem(ENDED_KEY);
  notify();
}

/** Whether the last session ended because the server stopped accepting it. */
export function sessionExpired(): boolean {
  return read(ENDED_KEY) === "expired";
}

export function subscribeToken(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Exchanges a refresh token for new tokens; undefined when the server refuses it. */
export type Renew = (refreshToken: string) => Promise<SessionTokens | undefined>;

let renewing: Promise<string | undefined> | null = null;

/**
 * The bearer token to send now: the current one, or a renewed one when it expires within
 * RENEW_BEFORE_MS. A refresh token the server refuses ends the session (expired); a renewal
 * that fails otherwise (network) leaves the session as it is and sends the current token.
 */
export async function freshToken(renew: Renew, now = Date.now()): Promise<string | undefined> {
  const token = getToken();
  const refresh = read(REFRESH_KEY);
  const expires = Number(read(EXPIRES_KEY));
  if (!token || !refresh || !expires || now < expires - RENEW_BEFORE_MS) return token ?? undefined;
  renewing ??= (async () => {
    try {
      const tokens = await renew(refresh);
      if (!tokens) {
        endSession({ expired: true });
        return undefined;
      }
      // the user may have signed out meanwhile
      if (getToken() === token) setSession(tokens);
      return getToken() ?? undefined;
    } catch {
      return token;
    } finally {
      renewing = null;
    }
  })();
  return renewing;
}
