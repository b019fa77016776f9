"""Counters that slow down guessing and flooding, each changed by one atomic statement.

Two kinds, both rows of ``throttle_counters`` keyed by what they count:

- **Backoff** (sign-in failures): the first ``free`` attempts pass; after that each attempt
  must wait ``2^(n - free)`` seconds (1, 2, 4 … up to ``max_delay``) after the previous one.
  Nobody is ever locked out: a wait ends. An attempt *reserves* its place (the count goes up
  before the password is checked), in the same statement that decides whether it may run,
  so parallel guesses cannot slip past the limit; a success gives its place back.
- **Window** (sign-ups, password-reset emails): at most ``limit`` per window.

A key is forgotten once it has been quiet for its window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import text
from sqlalchemy.orm import Session

from app.models import ThrottleCounter


@dataclass(frozen=True)
class Backoff:
    """A backoff counter: ``key`` names what it counts (``login:client:10.0.0.1``)."""

    key: str
    free: int
    max_delay: int
    forget_after: int

    def delay(self, count: int) -> int:
        """Seconds to wait after the last attempt when ``count`` attempts were counted."""
        if count < self.free:
            return 0
        return min(self.max_delay, 1 << min(count - self.free, 30))


_RESERVE = text(
    """
    INSERT INTO throttle_counters AS t (key, count, window_started_at, last_at)
    VALUES (:key, 1, now(), now())
    ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN t.last_at < now() - make_interval(secs => :forget)
                     THEN 1 ELSE t.count + 1 END,
        window_started_at = CASE WHEN t.last_at < now() - make_interval(secs => :forget)
                                 THEN now() ELSE t.window_started_at END,
        last_at = now()
    WHERE t.last_at < now() - make_interval(secs => :forget)
       OR t.count < :free
       OR t.last_at + make_interval(
              secs => LEAST(:max_delay, power(2, LEAST(t.count - :free, 30)))
          ) <= now()
    RETURNING count
    """
)


def reserve(db: Session, backoff: Backoff) -> int | None:
    """Count one more attempt, if it may run now: None when it must wait (nothing counted),
    else the attempt's number. Part of the caller's transaction."""
    count = db.execute(
        _RESERVE,
        {
            "key": backoff.key,
            "free": backoff.free,
            "max_delay": backoff.max_delay,
            "forget": backoff.forget_after,
        },
    ).scalar()
    return None if count is None else int(count)


def retry_after(db: Session, backoff: Backoff) -> int:
    """Whole seconds until ``backoff`` lets the next attempt run (at least 1)."""
    row = db.get(ThrottleCounter, backoff.key, populate_existing=True)
    if row is None:
        return 1
    ready = row.last_at + timedelta(seconds=backoff.delay(row.count))
    return max(1, math.ceil((ready - datetime.now(UTC)).total_seconds()))


def give_back(db: Session, key: str) -> None:
    """Undo one reservation (the attempt succeeded)."""
    db.execute(
        text("UPDATE throttle_counters SET count = greatest(count - 1, 0) WHERE key = :key"),
        {"key": key},
    )


def clear(db: Session, key: str) -> None:
    """Forget every attempt counted under ``key``."""
    db.execute(text("DELETE FROM throttle_counters WHERE key = :key"), {"key": key})


_HIT = text(
    """
    INSERT INTO throttle_counters AS t (key, count, window_started_at, last_at)
    VALUES (:key, 1, now(), now())
    ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN t.window_started_at <= now() - make_interval(secs => :window)
                     THEN 1 ELSE t.count + 1 END,
        window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => :window)
                                 THEN now() ELSE t.window_started_at END,
        last_at = now()
    RETURNING count, window_started_at
    """
)


def hit(db: Session, *, key: str, limit: int, window: int) -> int | None:
    """Count one more event in a fixed window: None while within ``limit``, else the seconds
    until the window ends. Part of the caller's transaction."""
    row = db.execute(_HIT, {"key": key, "window": window}).one()
    count, started = int(row[0]), row[1]
    if count <= limit:
        return None
    ends: datetime = started + timedelta(seconds=window)
    return max(1, math.ceil((ends - datetime.now(UTC)).total_seconds()))
