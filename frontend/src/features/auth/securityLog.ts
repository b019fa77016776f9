/** What each event of an account's security log means, for people. */
const ACTIONS: Record<string, string> = {
  "user.signup": "Account created",
  "user.signup_existing": "Someone asked to create an account with your address (you were emailed)",
  "user.login": "Signed in",
  "user.login_failed": "Sign-in refused: wrong password",
  "user.logout": "Signed out",
  "user.logout_all": "Signed out everywhere",
  "user.token_refresh": "Session renewed",
  "user.refresh_reuse": "Session ended: its refresh token was used twice, so it may have been stolen",
  "user.session_revoke": "A session was signed out",
  "user.sessions_revoke_others": "Every other session was signed out",
  "user.password_changed": "Password changed",
  "user.password_change_failed": "Password change refused: wrong current password",
  "user.password_reset_requested": "Password reset link requested",
  "user.password_reset": "Password reset from an emailed link",
  "user.profile_update": "Profile changed",
};

/** Events worth a second look when they were not you. */
const WARNINGS = new Set(["user.login_failed", "user.refresh_reuse", "user.password_change_failed", "user.signup_existing"]);

export function describeAction(action: string): string {
  return ACTIONS[action] ?? action;
}

export function isWarning(action: string): boolean {
  return WARNINGS.has(action);
}

/**
 * A short name for the browser or program behind a User-Agent: `Firefox on Linux`,
 * `Chrome on Windows`, `curl`; the text itself (shortened) when it is none of the known ones.
 */
export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua) return "Unknown device";
  const program = /^(curl|Wget|python-requests|python-httpx|Go-http-client|PostmanRuntime)\b/i.exec(ua);
  if (program) return program[1];
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\//.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrom(e|ium)\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : null;
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad|iPod/.test(ua)
      ? "iOS"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /CrOS/.test(ua)
            ? "ChromeOS"
            : /Linux/.test(ua)
              ? "Linux"
              : null;
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  return ua.length > 60 ? `${ua.slice(0, 57)}…` : ua;
}
