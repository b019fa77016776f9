"""Load for the write scenarios: vigil-agent --simulate where it can target the system,
the runner's own generator otherwise (PostgreSQL, or when the agent is not built).

Both produce node-exporter-like hosts of 1,383 series. Two kinds of load:

- *backfill*: a fixed number of points, as fast as the system accepts them (throughput);
- *paced*: live timestamps, every host's series once per interval (a fixed load).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

from .agent import AGENT_TARGETS, agent_available, finish_agent, start_agent, with_agent_cpu
from .datagen import Dataset, HostShape
from .procs import ServiceError
from .runner import load, sampler_for
from .schema import ResourceSeries
from .systems import System


@dataclass
class LoadOutcome:
    points: int
    seconds: float
    generator: str
    resources: list[ResourceSeries] = field(default_factory=list)
    #: paced load: the points due in the window (one tick of every host per interval), the
    #: interval, how far behind the clock the system was at the end
    #: (0 when it kept up), points given up on, the consumer's backlog at the end (vigil),
    #: and whether the wait for that backlog hit its bound
    offered_points: int | None = None
    interval_s: float = 0.0
    lag_s: float = 0.0
    dropped: int = 0
    backlog_lines: int = 0
    lag_capped: bool = False

    @property
    def pps(self) -> float:
        return self.points / self.seconds if self.seconds > 0 else 0.0

    @property
    def offered_pps(self) -> float | None:
        if self.offered_points is None or self.seconds <= 0:
            return None
        return self.offered_points / self.seconds

    @property
    def taken(self) -> float | None:
        """Paced load: the share of the due points the system acknowledged."""
        if not self.offered_points:
            return None
        return self.points / self.offered_points

    @property
    def kept_up(self) -> bool:
        """Paced load: ≥ 95 % of the due points taken, at most one interval behind at the end."""
        if self.taken is None:
            return True
        return self.taken >= 0.95 and self.lag_s <= self.interval_s and not self.lag_capped


def use_agent(system: System, choice: str) -> bool:
    if choice == "builtin" or system.id not in AGENT_TARGETS:
        return False
    why = agent_available()
    if why and choice == "agent":
        raise ServiceError(f"--generator agent: {why}")
    return why is None


#: the most points a timed backfill renders up front for the runner's own generator: 1 M per
#: second of load (PostgreSQL's COPY took ~0.6 M/s here), at most 20 M (~0.8 GB of COPY rows)
BUILTIN_TIMED_POINTS_PER_S = 1_000_000
BUILTIN_TIMED_MAX_POINTS = 20_000_000
#: timestamps of a timed backfill with the agent start this many ticks back: more than any
#: system here takes in a level (at 3 M points/s, 50 hosts take 90 M points in 30 s)
TIMED_BACKFILL_TICKS = 3000


def backfill(
    system: System,
    *,
    hosts: int,
    ticks: int,
    clients: int,
    generator: str = "auto",
    interval_s: int = 10,
    phase: str = "",
    host_prefix: str = "sim",
    host_offset: int = 0,
    seconds: float | None = None,
    payload_cache: dict[tuple[str, int, int], list[tuple[bytes, int, int]]] | None = None,
) -> LoadOutcome:
    """hosts x ticks x 1,383 points as fast as the system takes them (end to end for vigil).

    With ``seconds`` the backfill is timed instead: it sends for that long, as fast as the
    system takes it (ticks is then ignored with the agent, and only bounds what the runner's
    own generator renders up front), and the figure is what was acknowledged over the time
    until the last acknowledgement.
    """
    if use_agent(system, generator):
        if seconds is None:
            points = hosts * 1383 * ticks
            bound = [
                f"-simulate.backfill={ticks * interval_s + 3600}s",
                f"-simulate.maxPoints={points}",
            ]
        else:
            bound = [
                f"-simulate.backfill={TIMED_BACKFILL_TICKS * interval_s + 3600}s",
                f"-simulate.duration={seconds:g}s",
            ]
        extra = [
            *bound,
            f"-simulate.senders={clients}",
            "-simulate.seed=1",
            f"-simulate.hostPrefix={host_prefix}",
        ]
        smp = sampler_for(system, generator=False)
        before = system.consumer_lines() if system.id == "vigil" else 0.0  # type: ignore[attr-defined]
        agent = start_agent(system, system.workdir, hosts=hosts, interval_s=interval_s, extra=extra)
        smp.add("generator (vigil-agent)", agent.pid, role="generator")
        smp.start()
        t0 = time.monotonic()
        res = finish_agent(agent, t0, timeout=900 if seconds is None else seconds + 300)
        if system.id == "vigil":
            elapsed = system.wait_written(before, res.lines) - t0  # type: ignore[attr-defined]
        else:
            elapsed = res.agent_seconds
        series = with_agent_cpu(smp.stop(phase), res)
        if res.errors or res.dropped or res.sent != res.points:
            raise ServiceError(
                f"vigil-agent: {res.errors} send errors, {res.dropped} dropped, {res.sent}/{res.points} sent"
            )
        if seconds is not None and res.ticks >= TIMED_BACKFILL_TICKS:
            raise ServiceError(
                f"{system.id} took all {TIMED_BACKFILL_TICKS} ticks of the timed backfill in"
                f" {res.agent_seconds:.0f} s; use fewer --seconds or more --hosts"
            )
        return LoadOutcome(res.sent, elapsed, "vigil-agent", series)
    if seconds is not None:
        budget = min(BUILTIN_TIMED_MAX_POINTS, int(seconds * BUILTIN_TIMED_POINTS_PER_S))
        ticks = max(1, budget // (hosts * 1383))
    now = int(time.time() * 1000)
    start = now - (ticks * interval_s + 3600) * 1000
    ds = Dataset(
        HostShape.named("node"),
        hosts=hosts,
        ticks=ticks,
        start_ms=start - start % 1000 + 1234,
        interval_ms=interval_s * 1000,
        host_offset=host_offset,
    )
    system.prepare(ds)
    key = (system.payload_format, hosts, ticks)
    if payload_cache is not None and key in payload_cache:
        payloads = payload_cache[key]
    else:
        payloads = [(system.payload(c), c.points, c.lines) for c in ds.chunks(5000)]
        if payload_cache is not None:
            payload_cache.clear()
            payload_cache[key] = payloads
    before = system.consumer_lines() if system.id == "vigil" else 0.0  # type: ignore[attr-defined]
    smp = sampler_for(system).start()
    t0 = time.monotonic()
    r = load(system, payloads, clients=clients, label=f"{phase} {system.id}", deadline_s=seconds)
    done = system.wait_written(before, r.lines) if system.id == "vigil" else time.monotonic()  # type: ignore[attr-defined]
    return LoadOutcome(r.points, done - t0, "builtin", smp.stop(phase))


def warm_up(
    system: System,
    *,
    hosts: int,
    interval_s: int,
    generator: str = "auto",
    host_prefix: str = "sim",
    host_offset: int = 0,
) -> float:
    """One tick of every host, before a paced load of the same hosts: the series exist when
    its window opens, as they do on a fleet that has been running (creating ~1,383 series per
    host costs far more than adding samples to them). Returns the seconds it took, until the
    last acknowledgement (for vigil: until the consumer wrote it all)."""
    if use_agent(system, generator):
        extra = [
            f"-simulate.backfill={2 * interval_s}s",
            f"-simulate.maxPoints={hosts * 1383}",
            "-simulate.senders=2",
            "-simulate.seed=1",
            f"-simulate.hostPrefix={host_prefix}",
        ]
        before = system.consumer_lines() if system.id == "vigil" else 0.0  # type: ignore[attr-defined]
        agent = start_agent(
            system,
            system.workdir,
            hosts=hosts,
            interval_s=interval_s,
            extra=extra,
            name="vigil-agent-warm-up",
        )
        t0 = time.monotonic()
        res = finish_agent(agent, t0, timeout=600)
        if system.id == "vigil":
            done: float = system.wait_written(before, res.lines)  # type: ignore[attr-defined]
            return done - t0
        return time.monotonic() - t0
    now = int(time.time() * 1000)
    start = now - 2 * interval_s * 1000
    ds = Dataset(
        HostShape.named("node"),
        hosts=hosts,
        ticks=1,
        start_ms=start - start % 1000,
        interval_ms=interval_s * 1000,
        host_offset=host_offset,
    )
    system.prepare(ds)
    payloads = [(system.payload(c), c.points, c.lines) for c in ds.chunks(5000)]
    return load(system, payloads, clients=2, label=f"warm-up {system.id}").elapsed_s


def paced(
    system: System,
    *,
    hosts: int,
    interval_s: int,
    duration_s: int,
    generator: str = "auto",
    phase: str = "",
    host_prefix: str = "sim",
    host_offset: int = 0,
    data_dir: Path | None = None,
) -> LoadOutcome:
    """Every host's 1,383 series once per interval, live timestamps, for duration_s.

    Bounded in time whether or not the system keeps up: generation stops after duration_s
    (the agent then waits at most 30 s for batches in flight), and the outcome says how much
    of the offered load was taken and how far behind the clock the system was at the end.
    """
    per_tick = hosts * 1383
    if use_agent(system, generator):
        extra = [
            f"-simulate.duration={duration_s}s",
            "-simulate.senders=2",
            "-simulate.seed=1",
            f"-simulate.hostPrefix={host_prefix}",
        ]
        smp = sampler_for(system, generator=False)
        before = system.consumer_lines() if system.id == "vigil" else 0.0  # type: ignore[attr-defined]
        wall0 = time.time()
        agent = start_agent(system, system.workdir, hosts=hosts, interval_s=interval_s, extra=extra)
        smp.add("generator (vigil-agent)", agent.pid, role="generator")
        smp.start()
        t0 = time.monotonic()
        res = finish_agent(agent, t0, timeout=duration_s + 120)
        seconds = time.monotonic() - t0
        series = with_agent_cpu(smp.stop(phase), res)
        # Behind the clock: ticks that were due before the end but never generated (the
        # generator waits for the system to take the previous ones), plus the time after the
        # end until the last batch was acknowledged.
        behind = 0.0
        due = duration_s // interval_s
        if res.last_tick is not None and res.first_tick is not None:
            behind = max(0.0, wall0 + duration_s - interval_s - res.last_tick)
            due = math.ceil((wall0 + duration_s - res.first_tick) / interval_s)
        lag = behind + max(0.0, res.agent_seconds - duration_s)
        out = LoadOutcome(
            res.sent,
            seconds,
            "vigil-agent",
            series,
            offered_points=due * per_tick,
            interval_s=interval_s,
            lag_s=lag,
            dropped=res.dropped + (res.points - res.sent - res.dropped),
        )
        if system.id == "vigil":
            # 204 means "in Kafka": the consumer's backlog at the end is lag too.
            backlog = max(0.0, before + res.lines - system.consumer_lines())  # type: ignore[attr-defined]
            out.backlog_lines = int(backlog)
            if backlog:
                t_end = time.monotonic()
                try:
                    done = system.wait_written(before, res.lines, timeout=max(30, duration_s))  # type: ignore[attr-defined]
                    out.lag_s += done - t_end
                except TimeoutError:
                    out.lag_s += time.monotonic() - t_end
                    out.lag_capped = True
        return out
    ticks = max(1, duration_s // interval_s)
    t0_ms = int(time.time() * 1000)
    ds = Dataset(
        HostShape.named("node"),
        hosts=hosts,
        ticks=ticks,
        start_ms=t0_ms,
        interval_ms=interval_s * 1000,
        host_offset=host_offset,
    )
    system.prepare(ds)
    lines_per_tick = hosts * ds.shape.lines_per_host
    w = system.writer()
    smp = sampler_for(system).start()
    t0 = time.monotonic()
    end = t0 + ticks * interval_s
    points = 0
    skipped = 0
    try:
        for k in range(ticks):
            if time.monotonic() >= end:
                # still writing earlier ticks when the window closed: the rest is not sent
                skipped = ticks - k
                break
            delay = t0 + k * interval_s - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            for c in Dataset.chunks_between(ds, k * lines_per_tick, (k + 1) * lines_per_tick, 5000):
                w.write(system.payload(c))
                points += c.points
        rest = end - time.monotonic()
        if rest > 0:
            time.sleep(rest)
    finally:
        w.close()
    done = time.monotonic()
    return LoadOutcome(
        points,
        done - t0,
        "builtin",
        smp.stop(phase),
        offered_points=ticks * per_tick,
        interval_s=interval_s,
        lag_s=skipped * interval_s + max(0.0, done - end),
    )
