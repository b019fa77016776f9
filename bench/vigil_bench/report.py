"""Human tables of a result document; its CSV and Markdown come from the backend.

``vigil-bench export`` and the backend's ``GET …/benchmarks/{id}/export`` (what the UI
downloads) are one implementation, ``app.benchmark_report`` in the backend package, so a
file exported here and one downloaded from a stored run are the same text. The backend's
document model reads every document this runner writes
(``backend/tests/test_benchmark_contract.py``); both packages live in the same virtualenv
(``make install``).
"""

from __future__ import annotations

from app.benchmark_report import CSV_COLUMNS, fmt_figure, labels_text
from app.benchmark_report import to_csv as _document_csv
from app.benchmark_report import to_markdown as _document_markdown
from app.schemas.benchmark import BenchmarkRunDocument

from .schema import BenchmarkRun, ScenarioResult

__all__ = ["CSV_COLUMNS", "run_text", "scenario_text", "to_csv", "to_markdown"]


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
        rows.append([m.system, m.metric, labels_text(m.labels), fmt_figure(m.value), m.unit])
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


def as_document(run: BenchmarkRun) -> BenchmarkRunDocument:
    """The run as the backend reads it (and stores it when uploaded)."""
    return BenchmarkRunDocument.model_validate(run.model_dump(mode="json"))


def to_csv(run: BenchmarkRun) -> str:
    """One row per measurement (the backend's export, ``format=csv``)."""
    return _document_csv(as_document(run))


def to_markdown(run: BenchmarkRun) -> str:
    """The run as a Markdown report (the backend's export, ``format=md``)."""
    return _document_markdown(as_document(run))
