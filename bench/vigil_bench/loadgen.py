"""Load for the write scenarios: vigil-agent --simulate where it can target the system,
the runner's own generator otherwise (PostgreSQL, or when the agent is not built).

Both produce node-exporter-like hosts of 1,383 series. Two kinds of load:

- *backfill*: a fixed number of points, as fast as the system accepts them (throughput);
- *paced*: live timestamps, every host's series once per interval (a fixed load).
"""

from __future__ import annotations

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

    @property
    def pps(self) -> float:
        return self.points / self.seconds if self.seconds > 0 else 0.0


def use_agent(system: System, choice: str) -> bool:
    if choice == "builtin" or system.id not in AGENT_TARGETS:
        return False
    why = agent_available()
    if why and choice == "agent":
        raise ServiceError(f"--generator agent: {why}")
    return why is None


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
) -> LoadOutcome:
    """hosts x ticks x 1,383 points as fast as the system takes them (end to end for vigil)."""
    if use_agent(system, generator):
        points = hosts * 1383 * ticks
        extra = [
            f"-simulate.backfill={ticks * interval_s + 3600}s",
            f"-simulate.maxPoints={points}",
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
        res = finish_agent(agent, t0, timeout=900)
        if system.id == "vigil":
            seconds = system.wait_written(before, res.lines) - t0  # type: ignore[attr-defined]
        else:
            seconds = res.agent_seconds
        series = with_agent_cpu(smp.stop(phase), res)
        if res.errors or res.dropped or res.sent != res.points:
            raise ServiceError(
                f"vigil-agent: {res.errors} send errors, {res.dropped} dropped, {res.sent}/{res.points} sent"
            )
        return LoadOutcome(res.sent, seconds, "vigil-agent", series)
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
    payloads = [(system.payload(c), c.points, c.lines) for c in ds.chunks(5000)]
    before = system.consumer_lines() if system.id == "vigil" else 0.0  # type: ignore[attr-defined]
    smp = sampler_for(system).start()
    t0 = time.monotonic()
    r = load(system, payloads, clients=clients, label=f"{phase} {system.id}")
    done = system.wait_written(before, r.lines) if system.id == "vigil" else time.monotonic()  # type: ignore[attr-defined]
    seconds = done - t0
    r_points = sum(p[1] for p in payloads)
    return LoadOutcome(r_points, seconds, "builtin", smp.stop(phase))


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
    """Every host's 1,383 series once per interval, live timestamps, for duration_s."""
    if use_agent(system, generator):
        extra = [
            f"-simulate.duration={duration_s}s",
            "-simulate.senders=2",
            "-simulate.seed=1",
            f"-simulate.hostPrefix={host_prefix}",
        ]
        smp = sampler_for(system, generator=False)
        agent = start_agent(system, system.workdir, hosts=hosts, interval_s=interval_s, extra=extra)
        smp.add("generator (vigil-agent)", agent.pid, role="generator")
        smp.start()
        t0 = time.monotonic()
        res = finish_agent(agent, t0, timeout=duration_s + 120)
        series = with_agent_cpu(smp.stop(phase), res)
        return LoadOutcome(res.sent, time.monotonic() - t0, "vigil-agent", series)
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
    per_tick = hosts * ds.shape.lines_per_host
    w = system.writer()
    smp = sampler_for(system).start()
    t0 = time.monotonic()
    points = 0
    try:
        for k in range(ticks):
            due = t0 + k * interval_s
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            for c in Dataset.chunks_between(ds, k * per_tick, (k + 1) * per_tick, 5000):
                w.write(system.payload(c))
                points += c.points
        rest = t0 + ticks * interval_s - time.monotonic()
        if rest > 0:
            time.sleep(rest)
    finally:
        w.close()
    return LoadOutcome(points, time.monotonic() - t0, "builtin", smp.stop(phase))
