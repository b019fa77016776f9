/**
 * Links Vigil emails (finishing a sign-up, resetting a password) carry their token after `#`
 * (`/signup/complete#token=vge_…`): browsers never send that part to a server, so it stays out
 * of access logs and Referer headers. The page reads it once and drops it from the address bar.
 */
export function tokenFromHash(hash: string): string {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return params.get("token")?.trim() ?? "";
}

const RETURN_KEY = "vigil.signup.return";

/**
 * Where to go once an account made from an emailed link is signed in: the page the sign-up
 * started from (an invitation), kept in this browser while the email travels. Only paths of
 * the app are kept.
 */
export function rememberReturnPath(path: string): void {
  try {
    if (path.startsWith("/") && !path.startsWith("//")) window.localStorage.setItem(RETURN_KEY, path);
    else window.localStorage.removeItem(RETURN_KEY);
  } catch {
    // no storage: the new account starts at its home page
  }
}

/** The path kept by `rememberReturnPath` (then forgotten), or "/". */
export function takeReturnPath(): string {
  try {
    const path = window.localStorage.getItem(RETURN_KEY);
    window.localStorage.removeItem(RETURN_KEY);
    return path && path.startsWith("/") && !path.startsWith("//") ? path : "/";
  } catch {
    return "/";
  }
}
