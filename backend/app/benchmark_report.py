"""CSV and Markdown of a benchmark result document: the one implementation.

``GET …/benchmarks/{benchmark_id}/export`` serves them for a stored run (the UI's Export
buttons download from there) and ``vigil-bench export`` writes them for a result file, by
importing this module, so the two are the same text byte for byte. It needs only the
document's model (:mod:`app.schemas.benchmark`): no database, no settings.
"""

from __future__ import annotations

import csv
import io
import re

from app.schemas.benchmark import BenchmarkRunDocument

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


def fmt_figure(v: float | None) -> str:
    """A figure as tables print it: thousands grouped above 1,000, 4 significant digits below 10."""
    if v is None:
        return "-"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.4g}"


def labels_text(labels: dict[str, str]) -> str:
    """``k=v`` pairs sorted by key, separated by spaces."""
    return " ".join(f"{k}={v}" for k, v in sorted(labels.items()))


# A cell a spreadsheet would read as a formula (OWASP, CSV injection) is written after a "'",
# which shows it as text; plain numbers are not. frontend/src/lib/csv.ts (the UI's other CSV
# downloads) does the same.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|nan|Infinity|NaN)$")


def csv_cell(value: str) -> str:
    """``value`` as a spreadsheet shows it: after a ``'`` when it would start a formula."""
    if value.startswith(_FORMULA_START) and not _NUMBER.match(value):
        return "'" + value
    return value


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def to_csv(run: BenchmarkRunDocument) -> str:
    """One row per measurement: figures as Python writes floats (``repr``), labels as text,
    every cell neutralised (:func:`csv_cell`)."""
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
                labels_text(m.labels),
                " ".join(repr(r) for r in m.repetitions),
                str(sc.valid).lower(),
            ]
            w.writerow([csv_cell(cell) for cell in row])
    return buf.getvalue()


def to_markdown(run: BenchmarkRunDocument) -> str:
    """The run as a report: environment, then per scenario its figures, resources, checks,
    summary and notes."""
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
                    f"| {m.system} | {m.metric} | {_md_escape(labels_text(m.labels))}"
                    f" | {fmt_figure(m.value)} | {m.unit} |"
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
                    f"| {r.name} | {_md_escape(r.phase)} | {r.cpu_percent_mean:.1f}"
                    f" | {r.cpu_percent_max:.1f} | {r.rss_bytes_max / 2**20:.0f} | {disk} |"
                )
        if sc.checks:
            out += ["", "Answer checks:", ""]
            for c in sc.checks:
                out.append(
                    f"- {'ok' if c.ok else '**FAILED**'} — {_md_escape(c.question)}:"
                    f" {_md_escape(c.detail)}"
                )
        if sc.summary:
            out += ["", "Summary: " + ", ".join(f"`{k}={v}`" for k, v in sc.summary.items())]
        for n in sc.notes:
            out.append(f"\n> {_md_escape(n)}")
    return "\n".join(out) + "\n"
