import type { Condition, ConditionOp, Severity } from "./api";
import { formatAlertValue, SEVERITIES, SEVERITY_LABELS } from "./severity";

/** One severity's row in the condition editor, as typed. */
export interface ConditionDraft {
  severity: Severity;
  /** Off: this severity is not checked (the monitor has no condition for it). */
  enabled: boolean;
  op: ConditionOp;
  threshold: string;
  /** The upper bound of `between` and `outside`. */
  threshold2: string;
}

export const isRange = (op: ConditionOp): boolean => op === "between" || op === "outside";

/** The editor's rows for a new monitor: critical above 90, the others off. */
export function defaultConditionDrafts(): ConditionDraft[] {
  return SEVERITIES.map((severity) => ({
    severity,
    enabled: severity === "critical",
    op: ">",
    threshold: severity === "critical" ? "90" : "",
    threshold2: "",
  }));
}

/** The editor's rows for a monitor's conditions: one per severity, on where it has one. */
export function conditionDrafts(conditions: readonly Condition[]): ConditionDraft[] {
  return SEVERITIES.map((severity) => {
    const c = conditions.find((x) => x.severity === severity);
    return c
      ? {
          severity,
          enabled: true,
          op: c.op,
          threshold: String(c.threshold),
          threshold2: c.threshold2 === null || c.threshold2 === undefined ? "" : String(c.threshold2),
        }
      : { severity, enabled: false, op: ">", threshold: "", threshold2: "" };
  });
}

/** `> 90`, `between 10 and 20`: how a condition reads. */
export function describeCondition(c: Pick<Condition, "op" | "threshold" | "threshold2">): string {
  if (isRange(c.op)) return `${c.op} ${formatAlertValue(c.threshold)} and ${formatAlertValue(c.threshold2)}`;
  return `${c.op} ${formatAlertValue(c.threshold)}`;
}

function readNumber(text: string): number | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

export interface ConditionsCheck {
  /** The conditions to send, worst first; empty when any row has an error. */
  conditions: Condition[];
  /** What is wrong with each severity's row. */
  errors: Partial<Record<Severity, string>>;
  /** A problem of the whole set (no severity on). */
  formError?: string;
  /**
   * Severities that can never be reported: whenever their condition holds, a worse one holds
   * too (critical `> 80` with warning `> 90`). Saved as written; the editor says so.
   */
  unreachable: Partial<Record<Severity, string>>;
}

/** Checks the editor's rows and turns the ones switched on into the API's conditions. */
export function checkConditions(drafts: readonly ConditionDraft[]): ConditionsCheck {
  const errors: Partial<Record<Severity, string>> = {};
  const out: Condition[] = [];
  for (const d of drafts) {
    if (!d.enabled) continue;
    const name = SEVERITY_LABELS[d.severity];
    const t = readNumber(d.threshold);
    if (t === undefined) {
      errors[d.severity] = d.threshold.trim() === "" ? `${name}: enter a threshold.` : `${name}: the threshold must be a number.`;
      continue;
    }
    if (isRange(d.op)) {
      const t2 = readNumber(d.threshold2);
      if (t2 === undefined) {
        errors[d.severity] =
          d.threshold2.trim() === "" ? `${name}: ${d.op} needs an upper bound.` : `${name}: the upper bound must be a number.`;
        continue;
      }
      if (t2 < t) {
        errors[d.severity] = `${name}: the upper bound must not be below ${formatAlertValue(t)}.`;
        continue;
      }
      out.push({ severity: d.severity, op: d.op, threshold: t, threshold2: t2 });
    } else {
      out.push({ severity: d.severity, op: d.op, threshold: t });
    }
  }
  const enabled = drafts.some((d) => d.enabled);
  const formError = enabled ? undefined : "Turn on at least one severity: a monitor needs a condition.";
  const ok = Object.keys(errors).length === 0 && enabled;
  return { conditions: ok ? out : [], errors, formError, unreachable: ok ? unreachableSeverities(out) : {} };
}

/** The values a one-sided condition holds for: above (`>`, `>=`) or below (`<`, `<=`) its threshold. */
function side(c: Condition): "up" | "down" | undefined {
  if (c.op === ">" || c.op === ">=") return "up";
  if (c.op === "<" || c.op === "<=") return "down";
  return undefined;
}

/** Whether `worse` holds for every value `lesser` holds for (both one-sided, the same way). */
function covers(worse: Condition, lesser: Condition): boolean {
  const dir = side(worse);
  if (dir === undefined || dir !== side(lesser)) return false;
  const strictWorse = worse.op === ">" || worse.op === "<";
  const strictLesser = lesser.op === ">" || lesser.op === "<";
  if (worse.threshold === lesser.threshold) return !strictWorse || strictLesser;
  return dir === "up" ? worse.threshold < lesser.threshold : worse.threshold > lesser.threshold;
}

/** Severities a worse condition always overrides (`conditions` worst first). */
export function unreachableSeverities(conditions: readonly Condition[]): Partial<Record<Severity, string>> {
  const out: Partial<Record<Severity, string>> = {};
  conditions.forEach((lesser, i) => {
    const worse = conditions.slice(0, i).find((w) => covers(w, lesser));
    if (worse) {
      out[lesser.severity] =
        `Never reported: ${SEVERITY_LABELS[worse.severity].toLowerCase()} (${describeCondition(worse)}) holds whenever this does.`;
    }
  });
  return out;
}
