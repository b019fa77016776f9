"""The questions every system is asked, and the check that they answered alike.

A :class:`Question` is language-neutral; each system translates it into its own language
(``systems/*.py``) and parses its answer into an :data:`Answer`: for each group (the BY tag
value, ``""`` without BY) the (bucket or sample time in ms, value) pairs in time order.
Buckets are half-open ``[t, t + bucket)`` and stamped with their start, as DQL, InfluxQL and
SQL draw them; PromQL's ``(t - w, t]`` windows are shifted back by one step when parsed.

:func:`compare_answers` is what makes a comparison fair: a system whose answer differs from
the reference beyond float tolerance makes the comparison invalid instead of being timed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Answer = dict[str, list[tuple[int, float]]]

Shape = Literal["raw", "host_avg", "fleet_max"]

SHAPE_TITLES: dict[str, str] = {
    "raw": "raw samples of one series (cpu-total usage_user of one host)",
    "host_avg": "avg usage_user over all CPUs of one host per bucket",
    "fleet_max": "max usage_user per bucket across all hosts, BY cpu",
}


@dataclass(frozen=True)
class Question:
    """One question: a shape over [start_ms, end_ms) with a bucket width."""

    id: str
    shape: Shape
    host: str
    start_ms: int
    end_ms: int
    bucket_ms: int

    @property
    def title(self) -> str:
        return SHAPE_TITLES[self.shape]


def suite(
    host: str, end_ms: int, windows_s: list[int], buckets_per_window: int = 60
) -> list[Question]:
    """The three shapes over each window, ending at or just before end_ms.

    DQL, InfluxQL and SQL draw buckets from the epoch; PromQL steps from the query start. So
    end (and with it every start, a whole number of buckets earlier) is moved back onto a
    multiple of every bucket width, where both agree.
    """
    widths = [w * 1000 // buckets_per_window for w in windows_s]
    end_ms -= end_ms % math.lcm(*widths)
    out = []
    for w in windows_s:
        bucket_ms = w * 1000 // buckets_per_window
        label = f"{w // 3600}h" if w % 3600 == 0 else f"{w}s"
        shapes: tuple[Shape, ...] = ("raw", "host_avg", "fleet_max")
        for shape in shapes:
            out.append(
                Question(f"{shape}-{label}", shape, host, end_ms - w * 1000, end_ms, bucket_ms)
            )
    return out


def _close(a: float, b: float, rel: float, abs_: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_)


def compare_answers(
    ref: Answer, other: Answer, *, rel: float = 1e-9, abs_: float = 1e-9
) -> str | None:
    """None when other has the same groups, times and values as ref; else the first difference."""
    if not ref or all(not v for v in ref.values()):
        return "reference answer is empty (nothing to compare)"
    if set(ref) != set(other):
        missing = sorted(set(ref) - set(other))[:5]
        extra = sorted(set(other) - set(ref))[:5]
        return f"groups differ: missing {missing}, unexpected {extra}"
    for g in sorted(ref):
        a, b = ref[g], other[g]
        if len(a) != len(b):
            times_a = {t for t, _ in a}
            times_b = {t for t, _ in b}
            only_a = sorted(times_a - times_b)[:3]
            only_b = sorted(times_b - times_a)[:3]
            return (
                f"group {g!r}: {len(a)} vs {len(b)} points (only in reference {only_a},"
                f" only in other {only_b})"
            )
        for (ta, va), (tb, vb) in zip(a, b, strict=True):
            if ta != tb:
                return f"group {g!r}: time {ta} vs {tb}"
            if not _close(va, vb, rel, abs_):
                return f"group {g!r} at {ta}: {va!r} vs {vb!r}"
    return None


def answer_size(a: Answer) -> int:
    return sum(len(v) for v in a.values())
