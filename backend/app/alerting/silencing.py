"""Which silence mutes a group now.

A silence applies to one monitor or to all, to the groups whose tags match every matcher
(Alertmanager's operators: ``=``, ``!=``, ``=~``, ``!~``; regular expressions match the whole
value and run on RE2, in linear time), from ``starts_at`` until ``ends_at`` — or, when it
recurs, only inside its weekly window (``weekdays`` at ``start``, for ``duration_minutes``, in
its time zone).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from functools import lru_cache
from typing import Any, Literal
from zoneinfo import ZoneInfo

import re2

MatchOp = Literal["=", "!=", "=~", "!~"]


@dataclass(frozen=True)
class Matcher:
    label: str
    op: MatchOp
    value: str

    def matches(self, tags: Mapping[str, str]) -> bool:
        actual = tags.get(self.label, "")
        match self.op:
            case "=":
                return actual == self.value
            case "!=":
                return actual != self.value
            case "=~":
                return _regex(self.value).fullmatch(actual) is not None
            case "!~":
                return _regex(self.value).fullmatch(actual) is None
        raise AssertionError(f"BUG: unknown matcher operator {self.op!r}")


@lru_cache(maxsize=1024)
def _regex(pattern: str) -> Any:
    return re2.compile(pattern)


def regex_error(pattern: str) -> str | None:
    """Why ``pattern`` is not a regular expression RE2 takes, or None."""
    try:
        re2.compile(pattern)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else ""
        if isinstance(reason, bytes):
            reason = reason.decode(errors="replace")
        return str(reason) or "invalid regular expression"
    return None


@dataclass(frozen=True)
class Recurrence:
    weekdays: tuple[int, ...]  # 0 = Monday
    start: time
    duration_minutes: int
    timezone: str

    def active(self, now: datetime) -> bool:
        local = now.astimezone(ZoneInfo(self.timezone))
        # a window that started on an earlier day may still be open
        for days_back in range(0, self.duration_minutes // 1440 + 2):
            day = local.date() - timedelta(days=days_back)
            if day.weekday() not in self.weekdays:
                continue
            begin = datetime.combine(day, self.start, tzinfo=local.tzinfo)
            if begin <= local < begin + timedelta(minutes=self.duration_minutes):
                return True
        return False


@dataclass(frozen=True)
class ActiveSilence:
    id: uuid.UUID
    monitor_id: uuid.UUID | None
    matchers: tuple[Matcher, ...]
    starts_at: datetime
    ends_at: datetime | None
    recurrence: Recurrence | None

    def in_effect(self, now: datetime) -> bool:
        if now < self.starts_at or (self.ends_at is not None and now >= self.ends_at):
            return False
        return self.recurrence is None or self.recurrence.active(now)

    def mutes(self, monitor_id: uuid.UUID, tags: Mapping[str, str], now: datetime) -> bool:
        if self.monitor_id is not None and self.monitor_id != monitor_id:
            return False
        return self.in_effect(now) and all(m.matches(tags) for m in self.matchers)


def from_row(
    *,
    id: uuid.UUID,  # noqa: A002 - the row's column
    monitor_id: uuid.UUID | None,
    matchers: Sequence[Mapping[str, Any]],
    starts_at: datetime,
    ends_at: datetime | None,
    recurrence: Mapping[str, Any] | None,
) -> ActiveSilence:
    rec = None
    if recurrence:
        hh, mm = (int(p) for p in str(recurrence["start"]).split(":")[:2])
        rec = Recurrence(
            weekdays=tuple(int(d) for d in recurrence["weekdays"]),
            start=time(hh, mm),
            duration_minutes=int(recurrence["duration_minutes"]),
            timezone=str(recurrence.get("timezone") or "UTC"),
        )
    return ActiveSilence(
        id=id,
        monitor_id=monitor_id,
        matchers=tuple(Matcher(str(m["label"]), m["op"], str(m["value"])) for m in matchers),
        starts_at=starts_at,
        ends_at=ends_at,
        recurrence=rec,
    )


def muting(
    silences: Iterable[ActiveSilence],
    monitor_id: uuid.UUID,
    tags: Mapping[str, str],
    now: datetime,
) -> ActiveSilence | None:
    """The first silence that mutes this group now."""
    for s in silences:
        if s.mutes(monitor_id, tags, now):
            return s
    return None
