/**
 * CSV and Markdown of a result document: the same text `vigil-bench export --format csv|md`
 * writes (bench/vigil_bench/report.py `to_csv`, `to_markdown`), built in the browser.
 */
import { csvField } from "@/lib/csv";
import type { BenchmarkRunDocument } from "./api";
import { fmtFigure, pyFixed, pyIsoformat, pyRepr, pyStr } from "./pyFormat";

export const CSV_COLUMNS = [
  "run_id",
  "scenario",
  "mode",
  "system",
  "metric",
  "value",
  "unit",
  "x",
  "labels",
  "repetitions",
  "valid",
] as const;

/** `k=v` pairs sorted by key, space-separated (report._labels). */
export function labelsText(labels: Record<string, string> | undefined): string {
  return Object.keys(labels ?? {})
    .sort()
    .map((k) => `${k}=${(labels ?? {})[k]}`)
    .join(" ");
}

export function toCsv(run: BenchmarkRunDocument): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const sc of run.scenarios ?? []) {
    for (const m of sc.measurements ?? []) {
      const row = [
        run.run_id,
        sc.scenario,
        sc.mode,
        m.system,
        m.metric,
        m.value === null ? "" : pyRepr(m.value),
        m.unit,
        m.x === null || m.x === undefined ? "" : pyRepr(m.x),
        labelsText(m.labels),
        (m.repetitions ?? []).map(pyRepr).join(" "),
        String(sc.valid ?? true),
      ];
      lines.push(row.map(csvField).join(","));
    }
  }
  return lines.join("\n") + "\n";
}

function mdEscape(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

export function toMarkdown(run: BenchmarkRunDocument): string {
  const env = run.environment;
  const out = [
    `# Benchmark run ${run.run_id}`,
    "",
    `- created: ${pyIsoformat(run.created_at)}`,
    `- command: \`${(run.command ?? []).join(" ")}\``,
    `- machine: ${env.cpu_model}, ${env.cpu_count} CPUs, ${pyFixed(env.memory_bytes / 2 ** 30, 1)} GiB,` +
      ` kernel ${env.kernel}, glibc ${env.glibc}, ${env.os}`,
    `- load generator: ${run.generator.kind} (${run.generator.detail ?? ""})`,
  ];
  const versions = env.system_versions ?? {};
  for (const sid of Object.keys(versions).sort()) out.push(`- ${sid}: ${versions[sid]}`);
  for (const sc of run.scenarios ?? []) {
    const valid = sc.valid ?? true;
    out.push(
      "",
      `## ${mdEscape(sc.title)}`,
      "",
      `Scenario \`${sc.scenario}\`, ${sc.mode} mode, ${pyFixed(sc.duration_s, 0)} s.` +
        (valid ? "" : " **Invalid: the systems' answers or runs did not agree.**"),
    );
    const params = Object.entries(sc.parameters ?? {});
    if (params.length > 0) out.push("Parameters: " + params.map(([k, v]) => `\`${k}=${pyStr(v)}\``).join(", ") + ".");
    for (const s of sc.systems ?? []) {
      if (!s.available) out.push(`\n\`${s.id}\` unavailable: ${mdEscape(s.reason ?? "")}`);
    }
    const measurements = sc.measurements ?? [];
    if (measurements.length > 0) {
      out.push("", "| system | metric | labels | value | unit |", "|---|---|---|---:|---|");
      for (const m of measurements) {
        out.push(`| ${m.system} | ${m.metric} | ${mdEscape(labelsText(m.labels))} | ${fmtFigure(m.value)} | ${m.unit} |`);
      }
    }
    const resources = sc.resources ?? [];
    if (resources.length > 0) {
      out.push(
        "",
        "| process | phase | CPU % mean | CPU % max | RSS max (MiB) | disk end (MiB) |",
        "|---|---|---:|---:|---:|---:|",
      );
      for (const r of resources) {
        const disk = r.disk_bytes_end === null || r.disk_bytes_end === undefined ? "-" : pyFixed(r.disk_bytes_end / 2 ** 20, 1);
        out.push(
          `| ${r.name} | ${mdEscape(r.phase ?? "")} | ${pyFixed(r.cpu_percent_mean, 1)} | ${pyFixed(r.cpu_percent_max, 1)}` +
            ` | ${pyFixed(r.rss_bytes_max / 2 ** 20, 0)} | ${disk} |`,
        );
      }
    }
    const checks = sc.checks ?? [];
    if (checks.length > 0) {
      out.push("", "Answer checks:", "");
      for (const c of checks) {
        out.push(`- ${c.ok ? "ok" : "**FAILED**"} — ${mdEscape(c.question)}: ${mdEscape(c.detail ?? "")}`);
      }
    }
    const summary = Object.entries(sc.summary ?? {});
    if (summary.length > 0) out.push("", "Summary: " + summary.map(([k, v]) => `\`${k}=${pyStr(v, true)}\``).join(", "));
    for (const n of sc.notes ?? []) out.push(`\n> ${mdEscape(n)}`);
  }
  return out.join("\n") + "\n";
}
