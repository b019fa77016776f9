"""Human tables, CSV and Markdown from a result document."""

from __future__ import annotations

import csv
import io
import re

from .schema import BenchmarkRun, ScenarioResult

CSV_COLUMNS = [
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
]


def _fmt(v: float | None) -> str:
    if v is None:
        return "-"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.4g}"


def _labels(d: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(d.items()))


def _table(rows: list[list[str]]) -> list[str]:
    if not rows:
        return []
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for n, r in enumerate(rows):
        out.append(
            "  ".join(
                c.ljust(w) if i < 2 else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            ).rstrip()
        )
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def scenario_text(sc: ScenarioResult) -> str:
    lines = [f"== {sc.title} [{sc.scenario}, {sc.mode}] {'' if sc.valid else '(INVALID)'}".rstrip()]
    for s in sc.systems:
        if not s.available:
            lines.append(f"   {s.id}: unavailable — {s.reason}")
    rows = [["system", "metric", "labels", "value", "unit"]]
    for m in sc.measurements:
        rows.append([m.system, m.metric, _labels(m.labels), _fmt(m.value), m.unit])
    lines += ["   " + x for x in _table(rows)]
    if sc.resources:
        rows = [["process", "phase", "cpu% mean", "cpu% max", "rss max MiB", "disk MiB end"]]
        for r in sc.resources:
            rows.append(
                [
                    r.name,
                    r.phase,
                    f"{r.cpu_percent_mean:.1f}",
                    f"{r.cpu_percent_max:.1f}",
                    f"{r.rss_bytes_max / 2**20:.0f}",
                    "-" if r.disk_bytes_end is None else f"{r.disk_bytes_end / 2**20:.1f}",
                ]
            )
        lines += ["", *("   " + x for x in _table(rows))]
    passed = [c for c in sc.checks if c.ok]
    if passed:
        lines.append(
            f"   checks OK: {len(passed)} ({', '.join(sorted({c.question for c in passed}))[:300]})"
        )
    for c in sc.checks:
        if not c.ok:
            lines.append(f"   check FAIL {c.question}: {c.detail}")
    for n in sc.notes:
        lines.append(f"   note: {n}")
    if sc.summary:
        lines.append("   summary: " + ", ".join(f"{k}={v}" for k, v in sc.summary.items()))
    return "\n".join(lines)


def run_text(run: BenchmarkRun) -> str:
    return "\n\n".join(scenario_text(s) for s in run.scenarios)


# A cell a spreadsheet would read as a formula (OWASP, CSV injection) is written after a "'";
# plain numbers are not. frontend/src/lib/csv.ts (the UI's export) does the same.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|nan|Infinity|NaN)$")


def csv_cell(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_START) and not _NUMBER.match(value) else value


def to_csv(run: BenchmarkRun) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for sc in run.scenarios:
        for m in sc.measurements:
            row = [
                run.run_id,
                sc.scenario,
                sc.mode,
                m.system,
                m.metric,
                "" if m.value is None else repr(m.value),
                m.unit,
                "" if m.x is None else repr(m.x),
                _labels(m.labels),
                " ".join(repr(r) for r in m.repetitions),
                str(sc.valid).lower(),
            ]
            w.writerow([csv_cell(cell) for cell in row])
    return buf.getvalue()


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def to_markdown(run: BenchmarkRun) -> str:
    env = run.environment
    out = [
        f"# Benchmark run {run.run_id}",
        "",
        f"- created: {run.created_at.isoformat()}",
        f"- command: `{' '.join(run.command)}`",
        f"- machine: {env.cpu_model}, {env.cpu_count} CPUs, {env.memory_bytes / 2**30:.1f} GiB,"
        f" kernel {env.kernel}, glibc {env.glibc}, {env.os}",
        f"- load generator: {run.generator.kind} ({run.generator.detail})",
    ]
    for sid, v in sorted(env.system_versions.items()):
        out.append(f"- {sid}: {v}")
    for sc in run.scenarios:
        out += [
            "",
            f"## {_md_escape(sc.title)}",
            "",
            f"Scenario `{sc.scenario}`, {sc.mode} mode, {sc.duration_s:.0f} s."
            + ("" if sc.valid else " **Invalid: the systems' answers or runs did not agree.**"),
        ]
        if sc.parameters:
            out.append(
                "Parameters: " + ", ".join(f"`{k}={v}`" for k, v in sc.parameters.items()) + "."
            )
        for s in sc.systems:
            if not s.available:
                out.append(f"\n`{s.id}` unavailable: {_md_escape(s.reason or '')}")
        if sc.measurements:
            out += ["", "| system | metric | labels | value | unit |", "|---|---|---|---:|---|"]
            for m in sc.measurements:
                out.append(
                    f"| {m.system} | {m.metric} | {_md_escape(_labels(m.labels))} | {_fmt(m.value)} | {m.unit} |"
                )
        if sc.resources:
            out += [
                "",
                "| process | phase | CPU % mean | CPU % max | RSS max (MiB) | disk end (MiB) |",
                "|---|---|---:|---:|---:|---:|",
            ]
            for r in sc.resources:
                disk = "-" if r.disk_bytes_end is None else f"{r.disk_bytes_end / 2**20:.1f}"
                out.append(
                    f"| {r.name} | {_md_escape(r.phase)} | {r.cpu_percent_mean:.1f} | {r.cpu_percent_max:.1f}"
                    f" | {r.rss_bytes_max / 2**20:.0f} | {disk} |"
                )
        if sc.checks:
            out += ["", "Answer checks:", ""]
            for c in sc.checks:
                out.append(
                    f"- {'ok' if c.ok else '**FAILED**'} — {_md_escape(c.question)}: {_md_escape(c.detail)}"
                )
        if sc.summary:
            out += ["", "Summary: " + ", ".join(f"`{k}={v}`" for k, v in sc.summary.items())]
        for n in sc.notes:
            out.append(f"\n> {_md_escape(n)}")
    return "\n".join(out) + "\n"
