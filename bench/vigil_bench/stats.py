"""Small order statistics (no numpy needed)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def quantile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated quantile, q in [0, 1]."""
    if not values:
        return math.nan
    xs = sorted(values)
    h = (len(xs) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def median(values: Sequence[float]) -> float:
    return quantile(values, 0.5)


def p99(values: Sequence[float]) -> float:
    return quantile(values, 0.99)


def ratio(a: float, b: float) -> float | None:
    if not b or math.isnan(a) or math.isnan(b):
        return None
    return a / b
