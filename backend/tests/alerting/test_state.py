"""The state machine, one evaluation at a time, as the evaluator drives it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from app.alerting.conditions import Condition
from app.alerting.state import (
    EMPTY_GROUP,
    Group,
    Notice,
    Observation,
    Rules,
    Transition,
    group_key,
    notices,
    step,
)

T0 = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
CPU = (Condition("warning", ">", 80), Condition("critical", ">", 90))
WEB1 = {"host": "web-1"}
WEB2 = {"host": "web-2"}


@dataclass
class Sim:
    """Drives a monitor through evaluations every ``interval`` seconds."""

    rules: Rules
    interval: int = 60
    groups: dict[str, Group] = field(default_factory=dict)
    t: datetime = T0
    muted_keys: set[str] = field(default_factory=set)
    events: list[Transition] = field(default_factory=list)
    sent: list[Notice] = field(default_factory=list)
    data_since: datetime = T0

    def eval(
        self, values: dict[str, float | None] | Sequence[tuple[dict[str, str], float | None]]
    ) -> list[tuple[str, str]]:
        pairs = (
            [({"host": h}, v) for h, v in values.items()]
            if isinstance(values, dict)
            else list(values)
        )
        observed = {group_key(tags): Observation(tags, v) for tags, v in pairs}
        out = step(self.rules, self.groups, observed, self.t, data_since=self.data_since)
        new = notices(self.rules, out, lambda g: "s" if g.key in self.muted_keys else None, self.t)
        self.groups = out.groups
        self.events += out.transitions
        self.sent += new
        self.t += timedelta(seconds=self.interval)
        return [(t.kind, t.key) for t in out.transitions] + [
            (f"send:{n.kind}", n.severity) for n in new
        ]


def test_fires_at_once_without_for_and_resolves() -> None:
    s = Sim(Rules(CPU))
    assert s.eval({"web-1": 50}) == []
    assert s.eval({"web-1": 95}) == [("firing", "host=web-1"), ("send:firing", "critical")]
    assert s.eval({"web-1": 96}) == []  # told once
    assert s.eval({"web-1": 10}) == [("resolved", "host=web-1"), ("send:resolved", "critical")]
    assert s.groups["host=web-1"].state == "ok"
    assert s.groups["host=web-1"].notified is None


def test_for_holds_the_alert_in_pending() -> None:
    s = Sim(Rules(CPU, for_seconds=120))
    assert s.eval({"web-1": 95}) == [("pending", "host=web-1")]
    assert s.eval({"web-1": 95}) == []  # 60 s
    assert s.eval({"web-1": 95}) == [("firing", "host=web-1"), ("send:firing", "critical")]
    fired = s.events[-1]
    assert (fired.from_state, fired.to_state, fired.value, fired.condition) == (
        "pending",
        "firing",
        95,
        "> 90",
    )


def test_pending_that_stops_holding_goes_back_to_ok_silently() -> None:
    s = Sim(Rules(CPU, for_seconds=120))
    s.eval({"web-1": 95})
    assert s.eval({"web-1": 20}) == [("ok", "host=web-1")]
    assert s.sent == []


def test_flapping_never_fires_under_for() -> None:
    s = Sim(Rules(CPU, for_seconds=120))
    for i in range(10):
        s.eval({"web-1": 95 if i % 2 == 0 else 20})
    assert [e.kind for e in s.events] == ["pending", "ok"] * 5
    assert s.sent == []


def test_flapping_without_for_tells_each_cycle() -> None:
    s = Sim(Rules(CPU))
    for i in range(4):
        s.eval({"web-1": 95 if i % 2 == 0 else 20})
    assert [n.kind for n in s.sent] == ["firing", "resolved", "firing", "resolved"]


def test_severity_changes_while_firing() -> None:
    s = Sim(Rules(CPU))
    assert s.eval({"web-1": 85}) == [("firing", "host=web-1"), ("send:firing", "warning")]
    assert s.eval({"web-1": 95}) == [("firing", "host=web-1"), ("send:firing", "critical")]
    assert s.events[-1].from_state == "firing" and s.events[-1].severity == "critical"
    assert s.eval({"web-1": 82}) == [("firing", "host=web-1"), ("send:firing", "warning")]
    assert s.eval({"web-1": 1}) == [("resolved", "host=web-1"), ("send:resolved", "warning")]


def test_groups_are_independent() -> None:
    s = Sim(Rules(CPU))
    assert s.eval({"web-1": 95, "web-2": 10}) == [
        ("firing", "host=web-1"),
        ("send:firing", "critical"),
    ]
    assert s.groups["host=web-2"].state == "ok"
    assert s.eval({"web-1": 95, "web-2": 99}) == [
        ("firing", "host=web-2"),
        ("send:firing", "critical"),
    ]


def test_a_group_that_disappears_resolves_after_the_grace_period() -> None:
    s = Sim(Rules(CPU, group_grace_seconds=120))
    s.eval({"web-1": 95, "web-2": 10})
    assert s.eval({"web-2": 10}) == []  # gone for 60 s
    assert s.groups["host=web-1"].state == "firing"
    assert s.eval({"web-2": 10}) == [("resolved", "host=web-1"), ("send:resolved", "critical")]
    assert "host=web-1" not in s.groups  # gone for 120 s: resolved and forgotten
    assert s.events[-1].reason == "group gone for 120 s"
    assert [n.kind for n in s.sent] == ["firing", "resolved"]


def test_new_groups_wait_their_delay() -> None:
    s = Sim(Rules(CPU, new_group_delay_seconds=120))
    assert s.eval({"web-1": 95}) == []
    assert s.eval({"web-1": 95}) == []
    assert s.eval({"web-1": 95}) == [("firing", "host=web-1"), ("send:firing", "critical")]


def test_no_data_alert_then_data_again() -> None:
    s = Sim(Rules(CPU, no_data_action="alert", no_data_after_seconds=120, no_data_severity="error"))
    s.eval({"web-1": 10, "web-2": 10})
    assert s.eval({}) == []
    assert s.eval({}) == [
        ("nodata", "host=web-1"),
        ("nodata", "host=web-2"),
        ("send:nodata", "error"),
        ("send:nodata", "error"),
    ]
    assert s.eval({}) == []
    assert s.eval({"web-1": 10}) == [("ok", "host=web-1"), ("send:resolved", "error")]
    assert s.groups["host=web-2"].state == "nodata"  # gone, but within the grace period


def test_no_data_keep_keeps_a_firing_alert() -> None:
    s = Sim(Rules(CPU, no_data_action="keep", no_data_after_seconds=60))
    s.eval({"web-1": 95})
    for _ in range(5):
        assert s.eval({}) == []
    assert s.groups["host=web-1"].state == "firing"


def test_no_data_resolve() -> None:
    s = Sim(Rules(CPU, no_data_action="resolve", no_data_after_seconds=120))
    s.eval({"web-1": 95})
    assert s.eval({}) == []
    assert s.eval({}) == [("resolved", "host=web-1"), ("send:resolved", "critical")]


def test_no_data_for_a_monitor_that_never_had_any() -> None:
    s = Sim(Rules(CPU, no_data_action="alert", no_data_after_seconds=120))
    assert s.eval({}) == []
    assert s.groups == {}
    assert s.eval({}) == []
    assert s.eval({}) == [("nodata", EMPTY_GROUP), ("send:nodata", "warning")]
    # data arrives for real groups: the empty group goes after the grace period
    s.rules = Rules(CPU, no_data_action="alert", no_data_after_seconds=120, group_grace_seconds=0)
    assert s.eval({"web-1": 5}) == [("ok", EMPTY_GROUP), ("send:resolved", "warning")]
    assert EMPTY_GROUP not in s.groups


def test_a_series_without_value_counts_as_absent() -> None:
    s = Sim(Rules(CPU, no_data_action="alert", no_data_after_seconds=60))
    s.eval({"web-1": 95})
    assert s.eval({"web-1": None}) == [("nodata", "host=web-1"), ("send:nodata", "warning")]


def test_muted_groups_are_not_told_until_the_silence_ends() -> None:
    s = Sim(Rules(CPU), muted_keys={"host=web-1"})
    assert s.eval({"web-1": 95}) == [("firing", "host=web-1")]
    assert s.eval({"web-1": 95}) == []
    s.muted_keys.clear()
    assert s.eval({"web-1": 95}) == [("send:firing", "critical")]
    s.muted_keys.add("host=web-1")
    assert s.eval({"web-1": 5}) == [("resolved", "host=web-1")]
    assert s.groups["host=web-1"].notified is None  # nobody is told later either
    s.muted_keys.clear()
    assert s.eval({"web-1": 5}) == []


def test_renotify_while_firing() -> None:
    s = Sim(Rules(CPU, renotify_seconds=180))
    s.eval({"web-1": 95})
    assert s.eval({"web-1": 95}) == []
    assert s.eval({"web-1": 95}) == []
    assert s.eval({"web-1": 95}) == [("send:renotify", "critical")]
    assert s.eval({"web-1": 95}) == []


def test_resolved_messages_can_be_switched_off() -> None:
    s = Sim(Rules(CPU, notify_resolved=False))
    s.eval({"web-1": 95})
    assert s.eval({"web-1": 5}) == [("resolved", "host=web-1")]
    assert s.groups["host=web-1"].notified is None


def test_group_key_is_stable_and_escaped() -> None:
    assert group_key({"region": "eu", "host": "a"}) == "host=a,region=eu"
    assert group_key({"k": "a,b=c"}) == "k=a\\,b\\=c"
    assert group_key({}) == ""
