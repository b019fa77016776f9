/** Figures for people: bytes in binary units, rates in k/M, ratios and changes. */

const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB"];

function trim(n: number, digits: number): string {
  return Number(n.toFixed(digits)).toString();
}

/** 3 significant digits, at least the integer part. */
function sig3(n: number): string {
  const a = Math.abs(n);
  if (a >= 100) return trim(n, 0);
  if (a >= 10) return trim(n, 1);
  if (a >= 1) return trim(n, 2);
  return Number(n.toPrecision(3)).toString();
}

export function formatBytes(v: number): string {
  let i = 0;
  let n = v;
  while (Math.abs(n) >= 1024 && i < BYTE_UNITS.length - 1) {
    n /= 1024;
    i += 1;
  }
  return `${sig3(n)} ${BYTE_UNITS[i]}`;
}

export function formatCount(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${sig3(v / 1e9)} G`;
  if (a >= 1e6) return `${sig3(v / 1e6)} M`;
  if (a >= 1e4) return `${sig3(v / 1e3)} k`;
  return sig3(v);
}

/** A figure with its unit, e.g. `1.23 GiB`, `12.7 %`, `21.5 k points/s`, `1.72 ms`. */
export function formatValue(v: number | null | undefined, unit: string): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  if (unit === "bytes") return formatBytes(v);
  if (unit === "%") return `${sig3(v)} %`;
  if (unit === "ratio") return `${sig3(v)}×`;
  const n = formatCount(v);
  return unit ? `${n} ${unit}` : n;
}

/** The number alone, for axis ticks. */
export function formatTick(v: number, unit: string): string {
  if (unit === "bytes") return formatBytes(v);
  return formatCount(v);
}

export function formatRatio(r: number | undefined): string {
  if (r === undefined || !Number.isFinite(r)) return "—";
  if (r >= 100) return `${r.toFixed(0)}×`;
  if (r >= 10) return `${r.toFixed(1)}×`;
  return `${r.toFixed(2)}×`;
}

export function formatChange(c: number | undefined): string {
  if (c === undefined || !Number.isFinite(c)) return "—";
  const pct = c * 100;
  const text = Math.abs(pct) >= 100 ? pct.toFixed(0) : pct.toFixed(1);
  return `${pct > 0 ? "+" : pct < 0 ? "−" : "±"}${text.replace("-", "")} %`;
}

export function formatSeconds(s: number): string {
  if (s >= 120) return `${(s / 60).toFixed(1)} min`;
  return `${s.toFixed(s >= 10 ? 0 : 1)} s`;
}
