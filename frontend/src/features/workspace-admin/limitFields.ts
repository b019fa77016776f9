import { formatBytes, formatNumber } from "@/lib/format";
import { LIMIT_FIELDS, parseWhole, type LimitField, type LimitKey } from "@/lib/limitFields";
import type { Limits, LimitsUpdate } from "./api";

/** The plan's bound of a limit, as the field's hint says it. */
export function ceilingHint(limits: Limits, f: LimitField): string {
  const bound = limits.ceilings[f.key];
  const shown = f.key === "max_body_bytes" ? formatBytes(bound) : `${formatNumber(bound)} ${f.unit}`;
  return `Plan ${f.direction}: ${shown}.`;
}

export type LimitsDraft = Record<LimitKey, string>;

export function toDraft(limits: Limits): LimitsDraft {
  return Object.fromEntries(LIMIT_FIELDS.map((f) => [f.key, String(limits[f.key])])) as LimitsDraft;
}

/**
 * Compares the edited values with the current limits: the fields that changed (ready to
 * PATCH) and, per field, why a value is refused — outside the range the API takes, or outside
 * the plan's bound (which the API refuses too, with 422). Spaces, `_` and `,` group digits.
 */
export function diffLimits(
  current: Limits,
  draft: LimitsDraft,
): { changes: LimitsUpdate; errors: Partial<Record<LimitKey, string>> } {
  const changes: LimitsUpdate = {};
  const errors: Partial<Record<LimitKey, string>> = {};
  for (const f of LIMIT_FIELDS) {
    const value = parseWhole(draft[f.key], f);
    if (typeof value === "string") {
      errors[f.key] = value;
      continue;
    }
    const bound = current.ceilings[f.key];
    if (f.direction === "ceiling" ? value > bound : value < bound) {
      const most = f.direction === "ceiling" ? "can be at most" : "must be at least";
      errors[f.key] =
        `${f.label} ${most} ${formatNumber(bound)} ${f.unit}, the ${f.direction} of the plan ${current.plan.name}; ` +
        "a platform operator sets the plan.";
      continue;
    }
    if (value !== current[f.key]) changes[f.key] = value;
  }
  return { changes, errors };
}
