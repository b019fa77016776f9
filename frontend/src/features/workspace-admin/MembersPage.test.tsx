import { describe, expect, it } from "vitest";
import type { ApiKey } from "@/api/apiKeys";
import { liveKeysOf, removalSummary } from "./MembersPage";

const key = (id: string, created_by: string | null, revoked_at: string | null = null): ApiKey => ({
  id,
  workspace_id: "w1",
  name: `key ${id}`,
  scope: "ingest",
  key_prefix: "vgi_abcdefgh",
  created_at: "2026-11-28T08:00:00Z",
  created_by,
  created_by_email: created_by ? `${created_by}@example.com` : null,
  created_by_name: null,
  last_used_at: null,
  revoked_at,
});

describe("removing a member", () => {
  it("offers the live keys they created, and no others", () => {
    const keys = [key("1", "ada"), key("2", "ada", "2026-11-28T09:00:00Z"), key("3", "grace"), key("4", null)];
    expect(liveKeysOf(keys, "ada").map((k) => k.id)).toEqual(["1"]);
    expect(liveKeysOf(keys, "nobody")).toEqual([]);
  });

  it("says what else the removal revoked", () => {
    expect(removalSummary({ message: "Member removed", invitations_revoked: 0, keys_revoked: 0 })).toBe("Member removed.");
    expect(removalSummary({ message: "Member removed", invitations_revoked: 1, keys_revoked: 2 })).toBe(
      "Member removed, with 1 pending invitation and 2 API keys they created revoked.",
    );
  });
});
