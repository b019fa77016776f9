import { describe, expect, it } from "vitest";
import { invitationStatus, inviteLink } from "./inviteLink";

describe("inviteLink", () => {
  it("puts the code in the query string, encoded", () => {
    expect(inviteLink("https://vigil.example", "a+b/c=")).toBe("https://vigil.example/invite?code=a%2Bb%2Fc%3D");
    expect(new URL(inviteLink("http://127.0.0.1:8000", "xyz_-1")).searchParams.get("code")).toBe("xyz_-1");
  });
});

describe("invitationStatus", () => {
  const now = Date.parse("2026-11-21T08:00:00Z");
  const base = { accepted_at: null, revoked_at: null, expires_at: "2026-11-28T08:00:00Z" };
  it("is pending until accepted, revoked or expired", () => {
    expect(invitationStatus(base, now)).toBe("pending");
    expect(invitationStatus({ ...base, accepted_at: "2026-11-21T07:00:00Z" }, now)).toBe("accepted");
    expect(invitationStatus({ ...base, revoked_at: "2026-11-21T07:00:00Z" }, now)).toBe("revoked");
    expect(invitationStatus({ ...base, expires_at: "2026-11-21T08:00:00Z" }, now)).toBe("expired");
  });
});
