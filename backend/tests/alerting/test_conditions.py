from __future__ import annotations

import math

import pytest

from app.alerting.conditions import Condition, change, fmt, matching, reduce


@pytest.mark.parametrize(
    ("op", "value", "value2", "x", "holds"),
    [
        (">", 90, None, 90.5, True),
        (">", 90, None, 90, False),
        (">=", 90, None, 90, True),
        ("<", 5, None, 4.9, True),
        ("<=", 5, None, 5, True),
        ("<=", 5, None, 5.01, False),
        ("==", 1, None, 1.0, True),
        ("!=", 1, None, 1.0, False),
        ("between", 10, 20, 10, True),
        ("between", 10, 20, 20.1, False),
        ("outside", 10, 20, 9.9, True),
        ("outside", 10, 20, 15, False),
    ],
)
def test_condition_holds(
    op: str, value: float, value2: float | None, x: float, holds: bool
) -> None:
    assert Condition("warning", op, value, value2).holds(x) is holds  # type: ignore[arg-type]


def test_matching_picks_the_worst_severity_that_holds() -> None:
    conds = (
        Condition("warning", ">", 80),
        Condition("critical", ">", 90),
        Condition("info", ">", 50),
    )
    assert matching(conds, 95) == Condition("critical", ">", 90)
    assert matching(conds, 85) == Condition("warning", ">", 80)
    assert matching(conds, 60) == Condition("info", ">", 50)
    assert matching(conds, 10) is None
    assert matching(conds, None) is None
    assert matching(conds, math.nan) is None


def test_describe() -> None:
    assert Condition("critical", ">", 90).describe() == "> 90"
    assert Condition("error", "between", 1.5, 2.25).describe() == "between 1.5 and 2.25"


@pytest.mark.parametrize(
    ("reducer", "want"),
    [("last", 3.0), ("avg", 2.0), ("min", 1.0), ("max", 3.0), ("sum", 6.0)],
)
def test_reduce_leaves_out_nulls(reducer: str, want: float) -> None:
    assert reduce([1.0, None, 2.0, 3.0, None], reducer) == want  # type: ignore[arg-type]


def test_reduce_of_nothing_is_none() -> None:
    assert reduce([None, None], "avg") is None
    assert reduce([], "last") is None


def test_change() -> None:
    assert change(150, 100, "percent") == 50
    assert change(50, -100, "percent") == 150
    assert change(150, 100, "absolute") == 50
    assert change(1, 0, "percent") is None
    assert change(None, 1, "absolute") is None
    assert change(1, None, "absolute") is None


def test_fmt() -> None:
    assert fmt(97.0) == "97"
    assert fmt(97.123456) == "97.1235"
    assert fmt(0.5) == "0.5"
    assert fmt(None) == "no value"
