"""The per-group state machine of a monitor, and what people are told of it.

Each group (one value set of the query's ``BY`` tags) is in one state::

    ok ──condition holds──▶ pending ──held for `for`──▶ firing ──no longer holds──▶ ok
     ▲                         │ (`for` = 0: straight to firing)     (a "resolved" event)
     └──no longer holds────────┘
    any ──the query returned nothing for the no-data window, action "alert"──▶ nodata

``step`` applies one evaluation and returns the transitions (each becomes an alert event);
``notices`` then decides, from the states and the active silences, what to send. Both are
pure: the evaluator loads the groups, calls them, and stores the result in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Literal

from app.alerting.conditions import Condition, Severity, matching

State = Literal["ok", "pending", "firing", "nodata"]
EventKind = Literal["pending", "firing", "resolved", "ok", "nodata"]
NoticeKind = Literal["firing", "renotify", "resolved", "nodata"]
NoDataAction = Literal["alert", "keep", "resolve"]
#: the group of a monitor whose query returned nothing at all (no tags)
EMPTY_GROUP = ""


@dataclass(frozen=True)
class Rules:
    """What the state machine needs of a monitor."""

    conditions: tuple[Condition, ...]
    for_seconds: int = 0
    group_grace_seconds: int = 300
    new_group_delay_seconds: int = 0
    no_data_action: NoDataAction = "keep"
    no_data_after_seconds: int = 600
    no_data_severity: Severity = "warning"
    renotify_seconds: int | None = None
    notify_resolved: bool = True


@dataclass
class Group:
    key: str
    tags: dict[str, str]
    state: State
    since: datetime
    first_seen_at: datetime
    severity: Severity | None = None
    value: float | None = None
    last_seen_at: datetime | None = None
    notified: str | None = None  # the severity (or "nodata") people were last told of
    last_notified_at: datetime | None = None


@dataclass(frozen=True)
class Observation:
    """One group's value in this evaluation (None: the series had no value)."""

    tags: dict[str, str]
    value: float | None


@dataclass(frozen=True)
class Transition:
    key: str
    tags: dict[str, str]
    kind: EventKind
    from_state: State
    to_state: State
    severity: Severity | None
    value: float | None
    condition: str
    reason: str


@dataclass
class Outcome:
    groups: dict[str, Group]
    removed: dict[str, Group] = field(default_factory=dict)
    transitions: list[Transition] = field(default_factory=list)


def group_key(tags: Mapping[str, str]) -> str:
    """A stable key for a set of tags: ``host=web-1,region=eu`` (sorted; ``\\`` escapes)."""

    def esc(s: str) -> str:
        return s.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=")

    return ",".join(f"{esc(k)}={esc(v)}" for k, v in sorted(tags.items()))


def step(
    rules: Rules,
    groups: Mapping[str, Group],
    observed: Mapping[str, Observation],
    now: datetime,
    *,
    data_since: datetime,
) -> Outcome:
    """Apply one evaluation at ``now``. ``observed`` holds the groups the query returned
    (empty: it returned nothing); ``data_since`` is when the monitor last had data (or was
    created), for the no-data window of a monitor that has no group yet."""
    out = Outcome(groups={k: replace(g, tags=dict(g.tags)) for k, g in groups.items()})
    for key, obs in observed.items():
        _observe(rules, out, key, obs, now)
    has_data = any(o.value is not None for o in observed.values())
    for key, g in list(out.groups.items()):
        if key in observed and observed[key].value is not None:
            continue
        if has_data:
            _disappeared(rules, out, g, now)
        else:
            _no_data(rules, out, g, (now - (g.last_seen_at or g.first_seen_at)), now)
    if not has_data and not out.groups and rules.no_data_action == "alert":
        g = Group(EMPTY_GROUP, {}, "ok", since=data_since, first_seen_at=data_since)
        out.groups[EMPTY_GROUP] = g
        _no_data(rules, out, g, now - data_since, now)
        if g.state == "ok":
            del out.groups[EMPTY_GROUP]  # nothing to remember until the window has passed
    return out


def _move(
    out: Outcome,
    g: Group,
    to: State,
    kind: EventKind,
    now: datetime,
    *,
    severity: Severity | None,
    condition: Condition | None,
    reason: str,
) -> None:
    out.transitions.append(
        Transition(
            key=g.key,
            tags=dict(g.tags),
            kind=kind,
            from_state=g.state,
            to_state=to,
            severity=severity,
            value=g.value,
            condition=condition.describe() if condition else "",
            reason=reason,
        )
    )
    g.state = to
    g.since = now
    g.severity = severity if to in ("pending", "firing", "nodata") else None


def _observe(rules: Rules, out: Outcome, key: str, obs: Observation, now: datetime) -> None:
    g = out.groups.get(key)
    if g is None:
        g = Group(key, dict(obs.tags), "ok", since=now, first_seen_at=now)
        out.groups[key] = g
    if obs.value is None:
        return  # a series without a value this time: treated as absent below
    g.tags, g.value, g.last_seen_at = dict(obs.tags), obs.value, now
    if (now - g.first_seen_at).total_seconds() < rules.new_group_delay_seconds:
        return
    cond = matching(rules.conditions, obs.value)
    if g.state == "nodata":
        _move(out, g, "ok", "ok", now, severity=None, condition=None, reason="data again")
    if cond is None:
        if g.state == "pending":
            _move(out, g, "ok", "ok", now, severity=None, condition=None, reason="no longer holds")
        elif g.state == "firing":
            _move(out, g, "ok", "resolved", now, severity=None, condition=None, reason="resolved")
        return
    if g.state == "ok":
        if rules.for_seconds <= 0:
            _move(
                out,
                g,
                "firing",
                "firing",
                now,
                severity=cond.severity,
                condition=cond,
                reason="condition holds",
            )
        else:
            _move(
                out,
                g,
                "pending",
                "pending",
                now,
                severity=cond.severity,
                condition=cond,
                reason=f"condition holds; firing if it still does in {rules.for_seconds} s",
            )
    elif g.state == "pending":
        g.severity = cond.severity
        if (now - g.since).total_seconds() >= rules.for_seconds:
            _move(
                out,
                g,
                "firing",
                "firing",
                now,
                severity=cond.severity,
                condition=cond,
                reason=f"held for {rules.for_seconds} s",
            )
    elif g.state == "firing" and cond.severity != g.severity:
        _move(
            out,
            g,
            "firing",
            "firing",
            now,
            severity=cond.severity,
            condition=cond,
            reason=f"severity {g.severity} -> {cond.severity}",
        )


def _disappeared(rules: Rules, out: Outcome, g: Group, now: datetime) -> None:
    """The query returned other groups but not this one: after the grace period it resolves
    and is forgotten."""
    last = g.last_seen_at or g.first_seen_at
    if (now - last).total_seconds() < rules.group_grace_seconds:
        return
    reason = f"group gone for {rules.group_grace_seconds} s"
    if g.state == "firing":
        _move(out, g, "ok", "resolved", now, severity=None, condition=None, reason=reason)
    elif g.state in ("pending", "nodata"):
        _move(out, g, "ok", "ok", now, severity=None, condition=None, reason=reason)
    out.removed[g.key] = out.groups.pop(g.key)


def _no_data(rules: Rules, out: Outcome, g: Group, missing: timedelta, now: datetime) -> None:
    """The query returned nothing at all: the monitor's no-data policy decides."""
    if rules.no_data_action == "keep" or missing.total_seconds() < rules.no_data_after_seconds:
        return
    reason = f"no data for {rules.no_data_after_seconds} s"
    if rules.no_data_action == "alert":
        if g.state != "nodata":
            g.value = None
            _move(
                out,
                g,
                "nodata",
                "nodata",
                now,
                severity=rules.no_data_severity,
                condition=None,
                reason=reason,
            )
    elif g.state == "firing":
        _move(out, g, "ok", "resolved", now, severity=None, condition=None, reason=reason)
    elif g.state == "pending":
        _move(out, g, "ok", "ok", now, severity=None, condition=None, reason=reason)


@dataclass(frozen=True)
class Notice:
    """Something to send about one group: routed by ``severity``."""

    key: str
    kind: NoticeKind
    severity: Severity
    group: Group
    transition: Transition | None


Muted = Callable[[Group], object | None]  # the silence that mutes the group now, or None


def notices(rules: Rules, out: Outcome, muted: Muted, now: datetime) -> list[Notice]:
    """What to send after ``out``; updates each group's ``notified``/``last_notified_at``.

    A firing group is told once per severity (again after ``renotify_seconds``); a muted group
    is not told, and is told when the silence ends if it still fires. A resolution is sent
    only to people who were told of the problem, and not while muted.
    """
    last_transition: dict[str, Transition] = {t.key: t for t in out.transitions}
    result: list[Notice] = []
    for g in [*out.groups.values(), *out.removed.values()]:
        t = last_transition.get(g.key)
        is_muted = muted(g) is not None
        if g.state in ("firing", "nodata"):
            told = g.severity if g.state == "firing" else "nodata"
            assert g.severity is not None
            if g.notified != told:
                # a new severity, or firing after no data (or the reverse), supersedes what
                # was told before: receivers keep one status per group
                if not is_muted:
                    kind: NoticeKind = "firing" if g.state == "firing" else "nodata"
                    result.append(Notice(g.key, kind, g.severity, g, t))
                    g.notified, g.last_notified_at = told, now
            elif (
                rules.renotify_seconds
                and not is_muted
                and g.last_notified_at is not None
                and (now - g.last_notified_at).total_seconds() >= rules.renotify_seconds
            ):
                result.append(Notice(g.key, "renotify", g.severity, g, None))
                g.last_notified_at = now
        elif g.notified is not None:
            if rules.notify_resolved and not is_muted:
                result.append(_resolved(rules, g, t))
            g.notified, g.last_notified_at = None, None
    return result


def _resolved(rules: Rules, g: Group, t: Transition | None) -> Notice:
    told = g.notified
    severity: Severity = rules.no_data_severity if told == "nodata" else told  # type: ignore[assignment]
    return Notice(g.key, "resolved", severity, g, t)
