/**
 * The signed-in user's bearer token. Kept in sessionStorage so a reload keeps the session
 * but closing the tab ends it; components subscribe through `useSyncExternalStore`.
 */
const KEY = "vigil.session.token";
const listeners = new Set<() => void>();

export function getToken(): string | null {
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  if (token) window.sessionStorage.setItem(KEY, token);
  else window.sessionStorage.removeItem(KEY);
  listeners.forEach((l) => l());
}

export function subscribeToken(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
