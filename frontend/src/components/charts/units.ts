/**
 * Value formatting by unit, for axes, tooltips, legends and stat panels. Units follow the
 * dashboard schema (`none`, `short`, `percent`, `bytes`, `s` …); an unknown unit is shown
 * as a suffix after the number.
 */

export interface UnitOption {
  value: string;
  label: string;
}

/** The units offered in the panel editor, in the order they are listed. */
export const UNITS: UnitOption[] = [
  { value: "none", label: "None" },
  { value: "short", label: "Short (k, M, G)" },
  { value: "percent", label: "Percent (0–100)" },
  { value: "percentunit", label: "Percent (0.0–1.0)" },
  { value: "bytes", label: "Bytes (IEC)" },
  { value: "bytes/s", label: "Bytes/sec" },
  { value: "bits/s", label: "Bits/sec" },
  { value: "s", label: "Seconds" },
  { value: "ms", label: "Milliseconds" },
  { value: "us", label: "Microseconds" },
  { value: "ns", label: "Nanoseconds" },
  { value: "ops/s", label: "Operations/sec" },
  { value: "req/s", label: "Requests/sec" },
];

const SI = ["", "k", "M", "G", "T", "P"];
const IEC = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
const BITS = ["b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s", "Pb/s"];

/** Rounds to `decimals` places, or to 3 significant digits (whole numbers from 100 up). */
export function roundValue(v: number, decimals?: number | null): string {
  if (decimals !== undefined && decimals !== null) return v.toFixed(decimals);
  const a = Math.abs(v);
  if (a === 0) return "0";
  if (a >= 100) return String(Math.round(v));
  if (a < 1e-3) return v.toExponential(2);
  return String(+v.toPrecision(3));
}

/** Divides by `base` until the value is below it; returns the scaled value and the step. */
function scale(v: number, base: number, steps: number): [number, number] {
  let i = 0;
  let x = v;
  while (Math.abs(x) >= base && i < steps - 1) {
    x /= base;
    i += 1;
  }
  return [x, i];
}

function join(num: string, suffix: string): string {
  return suffix ? `${num} ${suffix}` : num;
}

/** Seconds → `ns`, `µs`, `ms`, `s`, `min`, `h`, `d` (the largest that keeps the value ≥ 1). */
function formatSeconds(sec: number, decimals?: number | null): string {
  const a = Math.abs(sec);
  if (a === 0) return "0 s";
  if (a < 1e-6) return join(roundValue(sec * 1e9, decimals), "ns");
  if (a < 1e-3) return join(roundValue(sec * 1e6, decimals), "µs");
  if (a < 1) return join(roundValue(sec * 1e3, decimals), "ms");
  if (a < 60) return join(roundValue(sec, decimals), "s");
  if (a < 3600) return join(roundValue(sec / 60, decimals), "min");
  if (a < 86_400) return join(roundValue(sec / 3600, decimals), "h");
  return join(roundValue(sec / 86_400, decimals), "d");
}

const TIME_FACTORS: Record<string, number> = { s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, ns: 1e-9 };

/** Formats `v` in `unit`: `formatValue(1536, "bytes")` → `"1.5 KiB"`, `(0.42, "percentunit")` → `"42%"`. */
export function formatValue(v: number | null | undefined, unit: string = "none", decimals?: number | null): string {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : "-∞";
  switch (unit) {
    case "":
    case "none":
      return decimals === undefined || decimals === null ? shortNumber(v) : v.toFixed(decimals);
    case "short": {
      const [x, i] = scale(v, 1000, SI.length);
      return `${roundValue(x, decimals)}${SI[i]}`;
    }
    case "percent":
    case "%":
      return `${roundValue(v, decimals)}%`;
    case "percentunit":
      return `${roundValue(v * 100, decimals)}%`;
    case "bytes": {
      const [x, i] = scale(v, 1024, IEC.length);
      return join(roundValue(x, i === 0 && decimals == null ? 0 : decimals), IEC[i]);
    }
    case "bytes/s": {
      const [x, i] = scale(v, 1024, IEC.length);
      return join(roundValue(x, i === 0 && decimals == null ? 0 : decimals), `${IEC[i]}/s`);
    }
    case "bits/s": {
      const [x, i] = scale(v, 1000, BITS.length);
      return join(roundValue(x, decimals), BITS[i]);
    }
    case "s":
    case "ms":
    case "us":
    case "µs":
    case "ns":
      return formatSeconds(v * TIME_FACTORS[unit], decimals);
    case "ops/s":
    case "req/s": {
      const [x, i] = scale(v, 1000, SI.length);
      return join(`${roundValue(x, decimals)}${SI[i]}`, unit);
    }
    default:
      return join(decimals === undefined || decimals === null ? shortNumber(v) : v.toFixed(decimals), unit);
  }
}

/** Short plain numbers: 1234567 → "1.23M", 0.000123 → "1.23e-4", 12.5 → "12.5". */
function shortNumber(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e4) {
    const [x, i] = scale(v, 1000, SI.length);
    return `${+x.toPrecision(3)}${SI[i]}`;
  }
  if (a === 0) return "0";
  if (a < 1e-3) return v.toExponential(2);
  return String(+v.toPrecision(4));
}
