import { describe, expect, it } from "vitest";
import { canManageMember, grantableRoles, isRole, outranksOrEquals } from "./roles";

describe("roles", () => {
  it("orders owner > admin > editor > viewer", () => {
    expect(outranksOrEquals("owner", "admin")).toBe(true);
    expect(outranksOrEquals("admin", "admin")).toBe(true);
    expect(outranksOrEquals("editor", "admin")).toBe(false);
    expect(outranksOrEquals("viewer", "editor")).toBe(false);
  });

  it("never offers a role above the actor's own", () => {
    expect(grantableRoles("owner")).toEqual(["owner", "admin", "editor", "viewer"]);
    expect(grantableRoles("admin")).toEqual(["admin", "editor", "viewer"]);
    expect(grantableRoles("viewer")).toEqual(["viewer"]);
  });

  it("lets admins manage members up to their own rank only", () => {
    expect(canManageMember("owner", "owner")).toBe(true);
    expect(canManageMember("admin", "editor")).toBe(true);
    expect(canManageMember("admin", "owner")).toBe(false);
    expect(canManageMember("editor", "viewer")).toBe(false);
    expect(canManageMember("viewer", "viewer")).toBe(false);
  });

  it("recognises role names", () => {
    expect(isRole("editor")).toBe(true);
    expect(isRole("superuser")).toBe(false);
    expect(isRole("toString")).toBe(false);
  });
});
