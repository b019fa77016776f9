import { PROFILES, profileOf, type Headline } from "./scenarios";
import { formatRatio } from "./units";

/** `1 · write-cost`, or the id alone for scenarios outside the methodology's numbering. */
export function scenarioLabel(id: string): string {
  const n = profileOf(id).number;
  return n === undefined ? id : `${n} · ${id}`;
}

/** Every scenario id the UI knows, methodology order first. */
export const KNOWN_SCENARIOS = Object.keys(PROFILES);

/** `vigil-storage 0.99× influxdb` plus what it measures. */
export function headlineText(h: Headline): string {
  return `${h.subject} ${formatRatio(h.ratio)} ${h.reference}`;
}
