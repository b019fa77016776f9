import type { PlanCreate, PlanUpdate } from "@/client/types.gen";
import { formatBytes, formatNumber } from "@/lib/format";
import { LIMIT_FIELDS, parseWhole } from "@/lib/limitFields";
import type { Plan } from "./api";

export type BoundKey = Exclude<keyof PlanCreate, "name" | "description">;

export interface PlanField {
  key: BoundKey;
  label: string;
  unit: string;
  min: number;
  max: number;
  /** A ceiling: a workspace's limit is at most it; a floor (the monitor interval): at least. */
  direction: "ceiling" | "floor";
}

/** A plan's bounds with the range the API takes (schemas/plan.py): one per workspace limit. */
export const PLAN_FIELDS: PlanField[] = LIMIT_FIELDS.map((f) => ({
  key: f.key,
  label: f.label,
  unit: f.unit,
  min: f.min,
  max: f.max,
  direction: f.direction,
}));

export interface PlanDraft {
  name: string;
  description: string;
  bounds: Record<BoundKey, string>;
}

/** A form's values from a plan (or from the plan a new one starts as a copy of). */
export function toPlanDraft(plan: Plan, name = plan.name): PlanDraft {
  return {
    name,
    description: plan.description ?? "",
    bounds: Object.fromEntries(PLAN_FIELDS.map((f) => [f.key, String(plan[f.key])])) as Record<BoundKey, string>,
  };
}

export type PlanErrors = Partial<Record<BoundKey | "name", string>>;

/**
 * The draft as the API takes it, or why not: each bound a whole number within its range
 * (spaces, `_` and `,` group digits), a name of 1 to 64 characters.
 */
export function parsePlanDraft(draft: PlanDraft): { body: PlanCreate | null; errors: PlanErrors } {
  const errors: PlanErrors = {};
  const name = draft.name.trim();
  if (!name) errors.name = "Name the plan.";
  else if (name.length > 64) errors.name = "A plan's name has at most 64 characters.";
  const bounds: Partial<Record<BoundKey, number>> = {};
  for (const f of PLAN_FIELDS) {
    const value = parseWhole(draft.bounds[f.key], f);
    if (typeof value === "string") errors[f.key] = value;
    else bounds[f.key] = value;
  }
  if (Object.keys(errors).length > 0) return { body: null, errors };
  return {
    body: { ...(bounds as Record<BoundKey, number>), name, description: draft.description.trim() || null },
    errors,
  };
}

/** What changed from `plan` to a valid draft, as a PATCH body (empty when nothing did). */
export function planChanges(plan: Plan, body: PlanCreate): PlanUpdate {
  const changes: PlanUpdate = {};
  if (body.name !== plan.name) changes.name = body.name;
  if ((body.description ?? null) !== (plan.description ?? null)) changes.description = body.description ?? "";
  for (const f of PLAN_FIELDS) if (body[f.key] !== plan[f.key]) changes[f.key] = body[f.key];
  return changes;
}

/** A bound as people read it: `16 MiB`, `100,000 points/s`, `at least 60 s`. */
export function formatBound(f: PlanField, value: number): string {
  const shown = f.key === "max_body_bytes" ? formatBytes(value) : `${formatNumber(value)} ${f.unit}`;
  return f.direction === "floor" ? `at least ${shown}` : shown;
}

/** The limits a plan change lowered, in words: `Ingest rate 100,000 → 1,000 points/s`. */
export function describeLowered(lowered: Record<string, { from: number; to: number }>): string[] {
  return PLAN_FIELDS.filter((f) => lowered[f.key]).map((f) => {
    const { from, to } = lowered[f.key];
    return f.key === "max_body_bytes"
      ? `${f.label} ${formatBytes(from)} → ${formatBytes(to)}`
      : `${f.label} ${formatNumber(from)} → ${formatNumber(to)} ${f.unit}`;
  });
}
