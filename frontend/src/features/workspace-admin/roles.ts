import type { Role } from "./api";

/** Every role, highest first, with what it may do (the backend's permission table). */
export const ROLES: { role: Role; description: string }[] = [
  { role: "owner", description: "Everything, including deleting the workspace" },
  { role: "admin", description: "Members, keys, limits and the audit log" },
  { role: "editor", description: "Dashboards and saved queries" },
  { role: "viewer", description: "Read dashboards and run queries" },
];

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

/** True when `role` is at least `other` (owner > admin > editor > viewer). */
export function outranksOrEquals(role: Role, other: Role): boolean {
  return RANK[role] >= RANK[other];
}

/** Roles `actor` may hand out: never one above its own. */
export function grantableRoles(actor: Role): Role[] {
  return ROLES.map((r) => r.role).filter((r) => outranksOrEquals(actor, r));
}

/** Whether `actor` may change or remove a member who has `target` (admins and owners, not above themselves). */
export function canManageMember(actor: Role, target: Role): boolean {
  return outranksOrEquals(actor, "admin") && outranksOrEquals(actor, target);
}

export function isRole(value: string): value is Role {
  return Object.hasOwn(RANK, value);
}
