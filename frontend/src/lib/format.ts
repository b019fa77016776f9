/** `1234567` → `1,234,567`. */
export function formatNumber(n: number): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** Bytes in the largest binary unit that keeps the number ≥ 1: `1048576` → `1 MiB`. */
export function formatBytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${formatNumber(Math.round(v * 100) / 100)} ${units[i]}`;
}
