from __future__ import annotations

import uuid
from datetime import UTC, datetime, time, timedelta

import pytest

from app.alerting.silencing import ActiveSilence, Matcher, Recurrence, muting, regex_error

T = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)  # a Saturday
M1, M2 = uuid.uuid4(), uuid.uuid4()


@pytest.mark.parametrize(
    ("op", "value", "tags", "want"),
    [
        ("=", "web-1", {"host": "web-1"}, True),
        ("=", "web-1", {"host": "web-10"}, False),
        ("!=", "web-1", {"host": "web-2"}, True),
        ("=~", "web-.*", {"host": "web-7"}, True),
        ("=~", "web", {"host": "web-7"}, False),  # the whole value must match
        ("!~", "db-.*", {"host": "web-7"}, True),
        ("=", "", {}, True),  # a missing tag is the empty string
    ],
)
def test_matchers(op: str, value: str, tags: dict[str, str], want: bool) -> None:
    assert Matcher("host", op, value).matches(tags) is want  # type: ignore[arg-type]


def test_regex_errors_are_named() -> None:
    assert regex_error("web-(") is not None
    assert regex_error("web-.*") is None


def silence(**kw: object) -> ActiveSilence:
    base: dict[str, object] = dict(
        id=uuid.uuid4(),
        monitor_id=None,
        matchers=(),
        starts_at=T - timedelta(hours=1),
        ends_at=T + timedelta(hours=1),
        recurrence=None,
    )
    base.update(kw)
    return ActiveSilence(**base)  # type: ignore[arg-type]


def test_by_monitor_and_tags_within_the_window() -> None:
    s = silence(monitor_id=M1, matchers=(Matcher("host", "=", "web-1"),))
    assert muting([s], M1, {"host": "web-1"}, T) is s
    assert muting([s], M2, {"host": "web-1"}, T) is None
    assert muting([s], M1, {"host": "web-2"}, T) is None
    assert muting([s], M1, {"host": "web-1"}, T + timedelta(hours=1)) is None
    assert muting([s], M1, {"host": "web-1"}, T - timedelta(hours=2)) is None


def test_weekly_recurrence_in_its_time_zone() -> None:
    # Saturdays 13:00-14:00 in Berlin (UTC+1 in November) = 12:00-13:00 UTC
    rec = Recurrence(
        weekdays=(5,), start=time(13, 0), duration_minutes=60, timezone="Europe/Berlin"
    )
    s = silence(ends_at=None, starts_at=T - timedelta(days=30), recurrence=rec)
    assert s.mutes(M1, {}, T + timedelta(minutes=30))
    assert not s.mutes(M1, {}, T + timedelta(minutes=61))
    assert not s.mutes(M1, {}, T - timedelta(days=1))  # Friday
    assert s.mutes(M1, {}, T + timedelta(days=7, minutes=5))


def test_a_window_that_crosses_midnight() -> None:
    rec = Recurrence(weekdays=(4,), start=time(23, 0), duration_minutes=180, timezone="UTC")
    s = silence(ends_at=None, starts_at=T - timedelta(days=30), recurrence=rec)
    friday_night = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)
    assert s.mutes(M1, {}, friday_night)
    assert s.mutes(M1, {}, friday_night + timedelta(hours=2))  # Saturday 01:30
    assert not s.mutes(M1, {}, friday_night + timedelta(hours=3))
