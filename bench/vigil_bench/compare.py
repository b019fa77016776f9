"""``vigil-bench compare A.json B.json``: how far two runs' figures are apart.

Every figure of a scenario present in both runs is matched by (scenario, system, metric,
labels), and each side is summarised by its median: the median of the figure's repetitions
when it has them, else the figure itself (which the scenario already reports as a median where
it repeats). Headline figures of each scenario's ``summary`` are compared too. A relative
difference beyond the tolerance (default ±10 %) is flagged. The last stdout line is one JSON
object: how many figures were compared, how many fell outside, their median and largest
absolute difference, and the flagged ones.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from .schema import BenchmarkRun, Measurement, ScenarioResult
from .stats import median

#: labels that describe an outcome rather than name a figure
_OUTCOME_LABELS = {"failed"}


@dataclass(frozen=True)
class Figure:
    scenario: str
    system: str
    metric: str
    labels: str
    unit: str

    @property
    def name(self) -> str:
        where = f" {{{self.labels}}}" if self.labels else ""
        return f"{self.scenario} {self.system} {self.metric}{where}"


@dataclass
class Row:
    figure: Figure
    a: float | None
    b: float | None

    @property
    def diff(self) -> float | None:
        """(b - a) / a; 0 when both are 0; None when either is missing or a alone is 0."""
        if self.a is None or self.b is None:
            return None
        if self.a == 0:
            return 0.0 if self.b == 0 else None
        return (self.b - self.a) / abs(self.a)


def figure_median(m: Measurement) -> float | None:
    reps = [r for r in m.repetitions if math.isfinite(r)]
    if reps:
        return median(reps)
    if m.value is None or not math.isfinite(m.value):
        return None
    return m.value


def _labels(labels: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(labels.items()) if k not in _OUTCOME_LABELS)


def figures(sc: ScenarioResult) -> dict[Figure, float | None]:
    out: dict[Figure, float | None] = {}
    for m in sc.measurements:
        f = Figure(sc.scenario, m.system, m.metric, _labels(m.labels), m.unit)
        # a figure measured twice in one run (e.g. per phase without a label) keeps the first
        out.setdefault(f, figure_median(m))
    for k, v in sc.summary.items():
        if isinstance(v, bool) or not isinstance(v, int | float):
            continue
        out.setdefault(Figure(sc.scenario, "summary", k, "", ""), float(v))
    return out


def _by_scenario(run: BenchmarkRun) -> dict[str, ScenarioResult]:
    return {sc.scenario: sc for sc in run.scenarios}


def compare(
    a: BenchmarkRun, b: BenchmarkRun, *, metrics: list[str] | None = None
) -> tuple[list[Row], list[Figure], list[Figure]]:
    """Rows for the figures in both runs, then the figures only in a and only in b."""
    sa, sb = _by_scenario(a), _by_scenario(b)
    rows: list[Row] = []
    only_a: list[Figure] = []
    only_b: list[Figure] = []
    for name in [n for n in sa if n in sb]:
        fa, fb = figures(sa[name]), figures(sb[name])
        for f, va in fa.items():
            if metrics and f.metric not in metrics:
                continue
            if f in fb:
                rows.append(Row(f, va, fb[f]))
            else:
                only_a.append(f)
        only_b += [f for f in fb if f not in fa and (not metrics or f.metric in metrics)]
    return rows, only_a, only_b


def _fmt(v: float | None) -> str:
    if v is None:
        return "-"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if v != 0 and abs(v) < 1e-2:
        return f"{v:.3g}"
    return f"{v:,.3f}".rstrip("0").rstrip(".")


def render(
    a: BenchmarkRun,
    b: BenchmarkRun,
    rows: list[Row],
    only_a: list[Figure],
    only_b: list[Figure],
    tolerance: float,
) -> tuple[str, dict[str, object]]:
    """The table and the closing JSON object."""
    table = [["figure", "A median", "B median", "B vs A", ""]]
    diffs: list[float] = []
    flagged: list[dict[str, object]] = []
    missing = 0
    for r in rows:
        d = r.diff
        mark = ""
        if d is None:
            missing += 1
            mark = "n/a"
        else:
            diffs.append(abs(d))
            if abs(d) > tolerance:
                mark = "OUTSIDE"
                flagged.append({"figure": r.figure.name, "a": r.a, "b": r.b, "diff": round(d, 4)})
        unit = f" {r.figure.unit}" if r.figure.unit else ""
        table.append(
            [
                r.figure.name + unit,
                _fmt(r.a),
                _fmt(r.b),
                "-" if d is None else f"{100 * d:+.1f} %",
                mark,
            ]
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = [f"A: {a.run_id}", f"B: {b.run_id}", ""]
    for n, row in enumerate(table):
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
        )
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    for label, fs in (("only in A", only_a), ("only in B", only_b)):
        if fs:
            lines.append(f"{label}: " + "; ".join(f.name for f in fs))
    compared = len(diffs)
    summary: dict[str, object] = {
        "a": a.run_id,
        "b": b.run_id,
        "tolerance": tolerance,
        "compared": compared,
        "outside": len(flagged),
        "within_fraction": round((compared - len(flagged)) / compared, 4) if compared else None,
        "median_abs_diff": round(median(diffs), 4) if diffs else None,
        "max_abs_diff": round(max(diffs), 4) if diffs else None,
        "not_comparable": missing,
        "only_in_a": len(only_a),
        "only_in_b": len(only_b),
        "flagged": flagged,
    }
    lines.append(
        f"{compared} figures compared, {len(flagged)} outside ±{100 * tolerance:g} %"
        + (f", median |B vs A| {100 * median(diffs):.1f} %" if diffs else "")
    )
    return "\n".join(lines), summary


def run_compare(
    a: BenchmarkRun,
    b: BenchmarkRun,
    *,
    tolerance: float = 0.10,
    metrics: list[str] | None = None,
) -> int:
    rows, only_a, only_b = compare(a, b, metrics=metrics)
    text, summary = render(a, b, rows, only_a, only_b, tolerance)
    print(text, flush=True)
    print(json.dumps(summary), flush=True)
    if not rows:
        return 2
    return 0 if summary["outside"] == 0 else 1
