/** The page an invitee opens to join: `/invite?code=…` on this Vigil. */
export const INVITE_PATH = "/invite";

export function inviteLink(origin: string, code: string): string {
  return `${origin}${INVITE_PATH}?${new URLSearchParams({ code }).toString()}`;
}

export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

/** Where an invitation stands at `now`. */
export function invitationStatus(
  inv: { accepted_at: string | null; revoked_at: string | null; expires_at: string },
  now: number = Date.now(),
): InvitationStatus {
  if (inv.accepted_at) return "accepted";
  if (inv.revoked_at) return "revoked";
  if (Date.parse(inv.expires_at) <= now) return "expired";
  return "pending";
}
