/**
 * Text in a colour the user chose (a threshold's) stays readable: a colour too close to the
 * background is darkened (light theme) or lightened (dark theme) until its contrast reaches
 * WCAG's ratio (4.5:1 for text, 3:1 for large text). Hue stays; only the shade moves.
 */

type Rgb = [number, number, number];

const resolved = new Map<string, Rgb | undefined>();

/** `#rgb`, `#rrggbb` (alpha ignored), `rgb(…)`, or a CSS colour name the browser knows. */
export function parseColor(color: string): Rgb | undefined {
  const c = color.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,8})$/.exec(c)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex.slice(0, 3)].map((d) => d + d).join("") : hex.slice(0, 6);
    if (full.length !== 6) return undefined;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
  }
  const rgb = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/.exec(c);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  if (!/^[a-z]+$/.test(c) || typeof document === "undefined") return undefined;
  // a name (`orange`): the browser says what it is
  if (!resolved.has(c)) {
    const probe = document.createElement("span");
    probe.style.color = c;
    document.body.append(probe);
    const computed = getComputedStyle(probe).color;
    probe.remove();
    resolved.set(c, computed && computed !== c ? parseColor(computed) : undefined);
  }
  return resolved.get(c);
}

function luminance([r, g, b]: Rgb): number {
  const lin = (v: number): number => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const toHex = (rgb: Rgb): string => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;

/** `color`, or the nearest shade of it with at least `minRatio` contrast on `background`. */
export function readableColor(color: string, background: string, minRatio = 4.5): string {
  const fg = parseColor(color);
  const bg = parseColor(background);
  if (!fg || !bg || contrastRatio(fg, bg) >= minRatio) return color;
  const toward: Rgb = luminance(bg) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  for (let t = 0.05; t <= 1; t += 0.05) {
    const mixed = fg.map((v, i) => v + (toward[i] - v) * t) as Rgb;
    if (contrastRatio(mixed, bg) >= minRatio) return toHex(mixed);
  }
  return toHex(toward);
}

/** The cards' background in the current theme (`--surface`), where values are written. */
export function surfaceColor(scheme: "light" | "dark"): string {
  const css = typeof document === "undefined" ? "" : getComputedStyle(document.documentElement).getPropertyValue("--surface").trim();
  return css || (scheme === "dark" ? "#1a1d24" : "#ffffff");
}
