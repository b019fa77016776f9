"""Severities, threshold conditions, reducers and change detection."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

Severity = Literal["critical", "error", "warning", "info"]
#: worst first: when several conditions hold, the first of these wins
SEVERITIES: tuple[Severity, ...] = ("critical", "error", "warning", "info")
SEVERITY_RANK = {s: i for i, s in enumerate(SEVERITIES)}

Op = Literal[">", ">=", "<", "<=", "==", "!=", "between", "outside"]
Reducer = Literal["last", "avg", "min", "max", "sum"]
REDUCERS: tuple[Reducer, ...] = ("last", "avg", "min", "max", "sum")


@dataclass(frozen=True)
class Condition:
    severity: Severity
    op: Op
    value: float
    value2: float | None = None

    def holds(self, x: float) -> bool:
        v, w = self.value, self.value2
        match self.op:
            case ">":
                return x > v
            case ">=":
                return x >= v
            case "<":
                return x < v
            case "<=":
                return x <= v
            case "==":
                return x == v
            case "!=":
                return x != v
            case "between":
                return w is not None and v <= x <= w
            case "outside":
                return w is not None and (x < v or x > w)
        raise AssertionError(f"BUG: unknown operator {self.op!r}")

    def describe(self) -> str:
        if self.op in ("between", "outside"):
            return f"{self.op} {fmt(self.value)} and {fmt(self.value2)}"
        return f"{self.op} {fmt(self.value)}"


def matching(conditions: Iterable[Condition], x: float | None) -> Condition | None:
    """The condition of the worst severity that holds for ``x``; None when none does."""
    if x is None or math.isnan(x):
        return None
    held = [c for c in conditions if c.holds(x)]
    return min(held, key=lambda c: SEVERITY_RANK[c.severity]) if held else None


def reduce(values: Sequence[float | None], reducer: Reducer) -> float | None:
    """One value for a group from its points in the window (nulls left out)."""
    xs = [v for v in values if v is not None and not math.isnan(v)]
    if not xs:
        return None
    match reducer:
        case "last":
            return xs[-1]
        case "avg":
            return sum(xs) / len(xs)
        case "min":
            return min(xs)
        case "max":
            return max(xs)
        case "sum":
            return sum(xs)
    raise AssertionError(f"BUG: unknown reducer {reducer!r}")


ChangeMode = Literal["percent", "absolute"]


def change(current: float | None, past: float | None, mode: ChangeMode) -> float | None:
    """How much ``current`` moved from ``past``: a difference, or a percentage of ``past``
    (None when there is no past value, or it is 0 and a percentage is asked for)."""
    if current is None or past is None:
        return None
    if mode == "absolute":
        return current - past
    if past == 0:
        return None
    return (current - past) / abs(past) * 100.0


def fmt(x: float | None) -> str:
    """A value as people read it: up to 4 decimals, no trailing zeros."""
    if x is None:
        return "no value"
    if math.isnan(x):
        return "NaN"
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.4f}".rstrip("0").rstrip(".")
