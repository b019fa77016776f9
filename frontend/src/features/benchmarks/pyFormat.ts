/**
 * Python's number and value formatting, so the UI's CSV and Markdown exports are the same text
 * as `vigil-bench export` (bench/vigil_bench/report.py) writes for the same document.
 *
 * JavaScript's `toFixed` rounds exact ties up where Python rounds them to even, and JavaScript
 * prints floats without `.0` and switches to exponents at other magnitudes; these helpers
 * follow Python.
 */

/** `f"{x:.{digits}f}"`: fixed digits, ties (exactly representable halves) to even. */
export function pyFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return pyRepr(x);
  // x * 10^digits ends in exactly .5 only when x has exactly digits + 1 binary fraction digits.
  const tie = Number.isInteger(x * 2 ** (digits + 1)) && !Number.isInteger(x * 2 ** digits);
  if (!tie) return x.toFixed(digits);
  const scaled = x * 10 ** digits;
  const down = Math.floor(scaled);
  const n = down % 2 === 0 ? down : down + 1;
  const sign = n < 0 ? "-" : "";
  const text = String(Math.abs(n)).padStart(digits + 1, "0");
  if (digits === 0) return sign + text;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

function groupThousands(intText: string): string {
  const sign = intText.startsWith("-") ? "-" : "";
  const digits = sign ? intText.slice(1) : intText;
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function stripZeros(text: string): string {
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

/** `f"{x:.{precision}g}"`. */
export function pyGeneral(x: number, precision: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  if (!Number.isFinite(x)) return pyRepr(x);
  let exp = Math.floor(Math.log10(Math.abs(x)));
  let fixed = pyFixed(x, Math.max(0, precision - 1 - exp));
  if (Math.abs(Number(fixed)) >= 10 ** (exp + 1)) {
    exp += 1;
    fixed = pyFixed(x, Math.max(0, precision - 1 - exp));
  }
  if (exp >= -4 && exp < precision) return stripZeros(fixed);
  const [mantissa, e] = x.toExponential(precision - 1).split("e");
  const n = Number(e);
  return `${stripZeros(mantissa)}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
}

/** `repr(float(x))`: shortest round-trip digits, `.0` on whole numbers, exponents past 1e16. */
export function pyRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, e] = Math.abs(x).toExponential().split("e");
  const exp = Number(e);
  const digits = mantissa.replace(".", "");
  if (exp >= -4 && exp < 16) {
    if (exp >= digits.length - 1) return `${sign}${digits}${"0".repeat(exp - digits.length + 1)}.0`;
    if (exp >= 0) return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
    return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  }
  return `${sign}${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const escaped = s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}

/**
 * `str(value)` of a parameter or summary value. JSON cannot tell 60 from 60.0, so `floats`
 * says how to print numbers: summary figures are floats in the schema; parameters may be
 * either, and whole numbers print as ints.
 */
export function pyStr(value: unknown, floats = false): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return floats || !Number.isInteger(value) ? pyRepr(value) : String(value);
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    return `[${value.map((v) => (typeof v === "string" ? pyStrRepr(v) : pyStr(v, floats))).join(", ")}]`;
  }
  return String(value);
}

/** `report._fmt`: the figure as the text table and Markdown print it. */
export function fmtFigure(v: number | null | undefined): string {
  if (v === null || v === undefined) return "-";
  if (Math.abs(v) >= 1000) return groupThousands(pyFixed(v, 0));
  if (Math.abs(v) >= 10) return pyFixed(v, 1);
  return pyGeneral(v, 4);
}

/**
 * `datetime.isoformat()` of a timestamp as the API sends it (`…T06:16:10.424426Z`):
 * microseconds (dropped when zero) and `+00:00` for UTC.
 */
export function pyIsoformat(text: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$/.exec(text);
  if (!m) return text;
  const micro = (m[2] ?? "").slice(0, 6).padEnd(6, "0");
  const frac = /^0+$/.test(micro) ? "" : `.${micro}`;
  const tz = m[3] === undefined ? "" : m[3] === "Z" ? "+00:00" : m[3];
  return `${m[1]}${frac}${tz}`;
}
