import { describe, expect, it } from "vitest";
import type { AuditEvent } from "./api";
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  describeDetails,
  describeTarget,
  isPastLastPage,
  pageCount,
  pageSummary,
  readAuditFilters,
  toAuditQuery,
  writeAuditFilters,
} from "./auditFilters";

const NOW = Date.parse("2026-11-21T08:00:00Z");

describe("audit filters in the URL", () => {
  it("reads defaults and round-trips what was set", () => {
    const empty = readAuditFilters(new URLSearchParams());
    expect(empty).toEqual({ action: "", actor: "", targetType: "", targetId: "", from: "now-7d", to: "now", page: 1 });
    expect(writeAuditFilters(empty).toString()).toBe("");
    const params = new URLSearchParams(
      "action=member.*&actor=ada&target_type=user&target_id=u1&from=now-24h&to=now&page=3",
    );
    const filters = readAuditFilters(params);
    expect(filters).toMatchObject({ action: "member.*", actor: "ada", targetType: "user", page: 3, from: "now-24h" });
    expect(readAuditFilters(writeAuditFilters(filters))).toEqual(filters);
  });

  it("ignores a page that is not a positive whole number", () => {
    expect(readAuditFilters(new URLSearchParams("page=-2")).page).toBe(1);
    expect(readAuditFilters(new URLSearchParams("page=abc")).page).toBe(1);
  });
});

describe("toAuditQuery", () => {
  it("turns the range into since (open end for now) and the page into an offset", () => {
    const f = readAuditFilters(new URLSearchParams("actor=%20ada%20&page=2&from=now-1h&to=now"));
    expect(toAuditQuery(f, NOW)).toEqual({
      since: "2026-11-21T07:00:00.000Z",
      limit: 50,
      offset: 50,
      actor: "ada",
    });
  });

  it("sends until for an absolute end", () => {
    const start = Date.parse("2026-11-20T00:00:00Z");
    const end = Date.parse("2026-11-21T00:00:00Z");
    const f = readAuditFilters(new URLSearchParams(`from=${start}&to=${end}&action=api_key.create`));
    expect(toAuditQuery(f, NOW)).toMatchObject({
      since: "2026-11-20T00:00:00.000Z",
      until: "2026-11-21T00:00:00.000Z",
      action: "api_key.create",
    });
  });

  it("throws naming the end of the range it does not understand", () => {
    const f = readAuditFilters(new URLSearchParams("from=yesterday&to=now"));
    expect(() => toAuditQuery(f, NOW)).toThrow('Start time "yesterday"');
  });
});

describe("paging", () => {
  it("summarises the visible slice", () => {
    expect(pageSummary(1, 0)).toBe("No events");
    expect(pageSummary(1, 130)).toBe("Showing 1–50 of 130");
    expect(pageSummary(3, 130)).toBe("Showing 101–130 of 130");
    expect(pageSummary(4, 130)).toMatch(/past the last event/);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(101)).toBe(3);
    expect(isPastLastPage(3, 101)).toBe(false);
    expect(isPastLastPage(4, 101)).toBe(true);
    expect(isPastLastPage(99, 1)).toBe(true);
    // Nothing at all is one (empty) page, not a page past the end.
    expect(isPastLastPage(1, 0)).toBe(false);
  });
});

function event(partial: Partial<AuditEvent>): AuditEvent {
  return {
    id: "e1",
    workspace_id: "w1",
    actor_user_id: "u0",
    actor_email: "owner@example.com",
    action: "member.role_change",
    target_type: null,
    target_id: null,
    details: {},
    ip: "127.0.0.1",
    user_agent: null,
    created_at: "2026-11-21T07:59:00Z",
    ...partial,
  };
}

describe("describing events", () => {
  it("names users by email and invitations by their address", () => {
    const emails = new Map([["u1", "ada@example.com"]]);
    expect(describeTarget(event({ target_type: "user", target_id: "u1" }), emails)).toBe("user ada@example.com");
    expect(describeTarget(event({ target_type: "user", target_id: "u9" }), emails)).toBe("user u9");
    expect(
      describeTarget(event({ target_type: "invitation", target_id: "i1", details: { email: "bo@example.com" } }), emails),
    ).toBe("invitation for bo@example.com");
    expect(describeTarget(event({ target_type: "api_key", target_id: "k1" }), emails)).toBe("api_key k1");
    expect(describeTarget(event({}), emails)).toBe("–");
  });

  it("shows changes as from → to", () => {
    // The database returns JSON keys in its own order.
    expect(describeDetails({ to: "editor", from: "viewer" })).toBe("viewer → editor");
    expect(describeDetails({ retention_days: { from: 30, to: 7 }, note: null })).toBe("note: –, retention_days: 30 → 7");
    expect(describeDetails({ email: "a@example.com", role: "viewer" })).toBe("email: a@example.com, role: viewer");
  });
});

describe("the audit actions the filters offer", () => {
  // The list is auditActions.json; the backend's tests compare it with every action it records.
  it("groups each action under its family, once", () => {
    const all = AUDIT_ACTIONS.flatMap((f) => f.actions);
    expect(new Set(all).size).toBe(all.length);
    for (const f of AUDIT_ACTIONS) {
      expect(f.family).toMatch(/^[a-z_]+\.\*$/);
      for (const a of f.actions) expect(a.startsWith(f.family.slice(0, -1))).toBe(true);
    }
  });

  it("includes the benchmark and workspace deletion actions and the benchmark run target", () => {
    const all = AUDIT_ACTIONS.flatMap((f) => f.actions);
    expect(all).toEqual(expect.arrayContaining(["benchmark.create", "benchmark.delete", "workspace.delete"]));
    expect(AUDIT_TARGET_TYPES).toContain("benchmark_run");
  });
});
