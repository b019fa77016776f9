"""One workspace end to end with 1, 2 and 3 consumer processes (issue 26): does a single
workspace's ingest rate grow with the consumers?

A mode of the ingest benchmark. Uses the running stack (``make up``): its gateway, Kafka,
consumer and vigil-storage, and one throw-away workspace. For each level of N consumers, N - 1
more consumer processes of the group are started with the stack consumer's command line and
environment (``VigilStack.start_copy``), and the run waits until the N of them share the line
topic's partitions. Then, for a fresh set of simulated hosts:

1. untimed: one tick of every host, written and stored, so that the timed part adds samples
   to series that exist (creating ~1,383 series per host costs storage far more than adding
   to them, the same for any number of consumers);
2. timed: ``vigil-agent --simulate`` backfills ``--ticks`` more ticks of those hosts through the
   gateway with ``--senders`` concurrent requests; the time runs from the agent's start until
   the consumers' counters (points storage acknowledged) add up to every line sent; then the
   stored samples are counted: none missing, none doubled.

Levels are interleaved (1, 2, 3, then 3, 2, 1, …) so that the machine's changing load weighs
on each; the figure of a level is the median of its repetitions, and its ratio is to one
consumer's. Every process's CPU is sampled once a second, with the whole machine's (other
work on it included), to show where the time goes when the rate does not follow the
consumers. ``--keyed`` adds a level with the most consumers behind a gateway that keeps each
workspace on one partition (``VIGIL_KAFKA_WORKSPACE_PARTITIONS=1``, the layout before records
were spread): what more consumers did for one workspace before.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import time
from collections import defaultdict
from typing import cast

from .. import procs
from ..httpconn import Http
from ..progress import log
from ..runner import RunContext
from ..schema import AnswerCheck, ResourceSeries, ScenarioResult
from ..stats import median
from ..systems.vigil import VigilStack
from .common import ResultBuilder
from .ingest import Timed, backfill, establish_fleet, stack_and_agent, stored

TITLE = "One workspace end to end (gateway → Kafka → consumers → storage) with 1, 2, 3 consumers"
LINE_TOPIC = "vigil.metrics.line"
KEYED = "keyed"  # the level label of --keyed
# where the CPU of a timed run went, in the order of the report, and the parts of it that
# are ours (the path and its load generator)
PROCESSES = ("gateway", "kafka", "consumers", "storage", "agent", "other work", "machine")
OURS = ("gateway", "kafka", "consumers", "storage", "agent")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--hosts", type=int, help="simulated hosts of 1,383 series (default: small 5, full 30)"
    )
    p.add_argument("--ticks", type=int, help="timed samples per series (default: small 5, full 60)")
    p.add_argument(
        "--consumers",
        default=None,
        help="consumer process counts, comma-separated (default: small 1,2, full 1,2,3)",
    )
    p.add_argument(
        "--repetitions", type=int, help="interleaved repetitions (default: small 1, full 3)"
    )
    p.add_argument("--senders", type=int, default=8, help="agent's concurrent requests (default 8)")
    p.add_argument(
        "--keyed",
        action="store_true",
        help="also the most consumers behind a gateway that keeps a workspace on one partition",
    )


def parse_levels(text: str) -> list[int]:
    """``"1,2,3"`` -> [1, 2, 3]; 1 always included (the reference), each at least 1."""
    try:
        levels = sorted({int(x) for x in text.split(",") if x.strip()} | {1})
    except ValueError:
        raise SystemExit(
            f"vigil-bench: --consumers wants numbers like 1,2,3, got {text!r}"
        ) from None
    if levels[0] < 1:
        raise SystemExit(f"vigil-bench: --consumers must be at least 1, got {text!r}")
    return levels


def line_partitions(health: dict[str, object]) -> set[int]:
    """The line topic's partitions a consumer's /health says it owns."""
    parts = health.get("partitions") or {}
    assert isinstance(parts, dict)
    return {int(k.rsplit("/", 1)[1]) for k in parts if k.startswith(f"{LINE_TOPIC}/")}


def shared_evenly(owned: list[set[int]], total: int) -> bool:
    """Every consumer owns some of the ``total`` partitions, none twice, all of them owned."""
    union: set[int] = set().union(*owned) if owned else set()
    return all(owned) and sum(map(len, owned)) == len(union) == total


def _health(url: str) -> dict[str, object]:
    try:
        return dict(json.loads(Http(url, timeout=5).expect("GET", "/health", ok=(200,))))
    except Exception:  # noqa: BLE001 - a consumer still starting answers nothing yet
        return {}


class Consumers:
    """The stack's consumer and the ones this run adds, set to a given count."""

    def __init__(self, s: VigilStack, ctx: RunContext) -> None:
        self.s = s
        self.ctx = ctx
        self.added: list[tuple[procs.Service, str]] = []
        deadline = time.monotonic() + 60
        self.total = 0
        while not self.total:
            self.total = len(line_partitions(_health(s.consumer_url)))
            if time.monotonic() > deadline:
                raise RuntimeError("the stack's consumer owns none of the line topic's partitions")
            time.sleep(0.2)

    @property
    def urls(self) -> list[str]:
        return [self.s.consumer_url, *(u for _, u in self.added)]

    def set(self, n: int) -> dict[str, set[int]]:
        """Exactly n consumers in the group, sharing the line topic's partitions; returns who
        owns which."""
        while len(self.added) < n - 1:
            self.added.append(
                self.s.start_copy("consumer", "VIGIL_CONSUMER_PORT", self.ctx.workdir)
            )
        while len(self.added) > n - 1:
            svc, _ = self.added.pop()
            svc.stop()
        self.s.added = [(svc.name, svc.pid) for svc, _ in self.added]
        self.s.added_consumers = [u for _, u in self.added]
        deadline = time.monotonic() + 120
        while True:
            owned = {u: line_partitions(_health(u)) for u in self.urls}
            if shared_evenly(list(owned.values()), self.total):
                return owned
            if time.monotonic() > deadline:
                raise RuntimeError(f"the {n} consumers did not share the partitions: {owned}")
            time.sleep(0.2)

    def stop(self) -> None:
        for svc, _ in self.added:
            svc.stop()
        self.added = []
        self.s.added = []
        self.s.added_consumers = []


def _stored_by(s: VigilStack, prefix: str, at: float, want: int) -> int:
    """The samples of the timed ticks stored, once ``want`` of them are or after 20 s: under
    load, storage can keep a new series out of searches for seconds (docs/benchmarks.md)."""
    deadline = time.monotonic() + 20
    got = stored(s, prefix, at)
    while got < want and time.monotonic() < deadline:
        time.sleep(0.5)
        got = stored(s, prefix, at)
    return got


def _timed_run(
    s: VigilStack, group: Consumers, hosts: int, ticks: int, senders: int, phase: str
) -> tuple[Timed, float, int, int]:
    """One timed backfill of fresh hosts whose series exist: its figures, the busiest
    consumer's share of the lines, and the samples stored against those sent."""
    prefix = f"bic{secrets.token_hex(3)}"
    common = [f"-simulate.senders={senders}", "-simulate.seed=3", f"-simulate.hostPrefix={prefix}"]
    establish_fleet(s, hosts=hosts, agent_args=common)
    # the timed ticks end 600 s before the run starts, the fleet's one tick 60 s before
    before = time.time() - 300
    counts0 = [s.consumer_lines(u) for u in group.urls]
    t = backfill(
        s,
        hosts=hosts,
        ticks=ticks,
        senders=senders,
        direct=False,
        prefix=prefix,
        phase=phase,
        seed=3,
    )
    counts = [s.consumer_lines(u) - c0 for u, c0 in zip(group.urls, counts0, strict=True)]
    share = max(counts) / sum(counts) if sum(counts) else 0.0
    want = hosts * 17 * ticks  # cpu usage_user samples
    return t, share, _stored_by(s, prefix, before, want), want


def cpu_by_process(series: list[ResourceSeries], machine: float) -> dict[str, float]:
    """Mean CPU % (of one core) of the gateway, Kafka, all consumers, storage and the agent over
    a timed run, the machine's, and what other work took (the machine's minus ours)."""
    out: dict[str, float] = defaultdict(float)
    for r in series:
        name, cpu = r.name, r.cpu_percent_mean
        if name.startswith("vigil/consumer"):
            out["consumers"] += cpu
        elif name.startswith("vigil/gateway"):
            out["gateway"] += cpu
        elif name == "vigil/kafka":
            out["kafka"] += cpu
        elif name == "vigil/storage":
            out["storage"] += cpu
        elif name.startswith("generator"):
            out["agent"] += cpu
    ours = sum(out.values())
    out["machine"] = machine
    out["other work"] = max(0.0, machine - ours)
    return dict(out)


def run(ctx: RunContext, args: argparse.Namespace) -> ScenarioResult:
    hosts = args.hosts or (5 if ctx.small else 30)
    ticks = args.ticks or (20 if ctx.small else 100)
    levels = parse_levels(args.consumers or ("1,2" if ctx.small else "1,2,3"))
    reps = args.repetitions or (1 if ctx.small else 3)
    senders = args.senders
    keyed = bool(args.keyed)
    rb = ResultBuilder(
        ctx,
        "ingest-consumers",
        TITLE,
        {
            "hosts": hosts,
            "ticks": ticks,
            "points": hosts * 1383 * ticks,
            "consumers": ",".join(map(str, levels)),
            "repetitions": reps,
            "senders": senders,
            "keyed_reference": keyed,
            "cpus": os.cpu_count() or 1,
        },
    )
    if not stack_and_agent(ctx, rb):
        return rb.build()
    labels = [str(n) for n in levels] + ([KEYED] if keyed else [])
    pps: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[dict[str, float]]] = defaultdict(list)
    shares: dict[str, list[float]] = defaultdict(list)
    with ctx.session("vigil") as system:
        s = cast(VigilStack, system)
        group = Consumers(s, ctx)
        keyed_gw: procs.Service | None = None
        stack_gateway = keyed_url = s.gateway_url
        try:
            if keyed:
                keyed_gw, keyed_url = s.start_copy(
                    "gateway",
                    "VIGIL_GATEWAY_PORT",
                    ctx.workdir,
                    env={"VIGIL_KAFKA_WORKSPACE_PARTITIONS": "1"},
                )
            for rep in range(reps):
                order = labels if rep % 2 == 0 else labels[::-1]
                for label in order:
                    n = max(levels) if label == KEYED else int(label)
                    group.set(n)
                    s.gateway_url = keyed_url if label == KEYED else stack_gateway
                    if label == KEYED and keyed_gw is not None:
                        s.added.append(("gateway-keyed", keyed_gw.pid))
                    t, share, got, want = _timed_run(
                        s, group, hosts, ticks, senders, f"{label} consumers rep {rep + 1}"
                    )
                    pps[label].append(t.pps)
                    cpu[label].append(cpu_by_process(t.series, t.machine_cpu_percent))
                    shares[label].append(share)
                    rb.resources.extend(t.series)
                    rb.checks.append(
                        AnswerCheck(
                            question=f"every point stored once ({label} consumers, rep {rep + 1})",
                            ok=got == want,
                            systems=["vigil"],
                            detail=f"cpu usage_user samples stored {got}, sent {want}",
                        )
                    )
                    log(
                        f"rep {rep + 1}, {label} consumers: {t.pps:,.0f} points/s ({t.elapsed:.1f} s), "
                        f"machine CPU {t.machine_cpu_percent:.0f} %, busiest consumer wrote "
                        f"{shares[label][-1]:.0%}"
                    )
        finally:
            s.gateway_url = stack_gateway
            group.stop()
            if keyed_gw is not None:
                keyed_gw.stop()
    report(rb, labels, pps, cpu, shares)
    return rb.build()


def report(
    rb: ResultBuilder,
    labels: list[str],
    pps: dict[str, list[float]],
    cpu: dict[str, list[dict[str, float]]],
    shares: dict[str, list[float]],
) -> None:
    """Each level's median rate, its ratio to one consumer's, how evenly the consumers shared
    the work, and where the CPU went: percent of one core per part of the path over the run,
    and CPU seconds per million points (the cost, whatever else the machine did)."""
    base = median(pps["1"])
    numeric = [x for x in labels if x != KEYED]
    cost: dict[str, dict[str, float]] = {}
    for label in labels:
        m = median(pps[label])
        x = None if label == KEYED else float(label)
        lab = {"consumers": label}
        rb.add("vigil", "points_per_second", m, "points/s", labels=lab, x=x, reps=pps[label])
        rb.add(
            "vigil", "ratio_to_one_consumer", m / base if base else None, "ratio", labels=lab, x=x
        )
        rb.add(
            "vigil",
            "busiest_consumer_share",
            median(shares[label]),
            "fraction",
            labels=lab,
            x=x,
            reps=shares[label],
        )
    for label in labels:
        x = None if label == KEYED else float(label)
        cost[label] = {}
        for proc in PROCESSES:
            values = [c.get(proc, 0.0) for c in cpu[label]]
            rb.add(
                "vigil",
                "cpu_percent",
                median(values),
                "% of one core",
                labels={"consumers": label, "process": proc},
                x=x,
                reps=values,
            )
            if proc in OURS:
                per_m = [
                    v / 100 * 1e6 / r for v, r in zip(values, pps[label], strict=True) if r > 0
                ]
                cost[label][proc] = median(per_m) if per_m else 0.0
                rb.add(
                    "vigil",
                    "cpu_seconds_per_million_points",
                    cost[label][proc],
                    "CPU s",
                    labels={"consumers": label, "process": proc},
                    x=x,
                    reps=per_m,
                )
    top = numeric[-1]
    cores = os.cpu_count() or 1
    for label in labels:
        rb.summary[f"pps/{label}"] = round(median(pps[label]))
        rb.summary[f"ratio/{label}"] = round(median(pps[label]) / base, 3) if base else None
        rb.summary[f"machine_cpu_percent/{label}"] = round(
            median([c["machine"] for c in cpu[label]]), 1
        )
    rb.summary["ratio"] = rb.summary[f"ratio/{top}"]
    rb.summary["consumers_max"] = int(top)
    rb.summary["cpus"] = cores
    one = cost["1"]
    path = sum(v for k, v in one.items() if k != "agent")
    rb.summary["consumer_cpu_s_per_million"] = round(one["consumers"], 3)
    rb.summary["path_cpu_s_per_million"] = round(path, 3)
    rb.summary["agent_cpu_s_per_million"] = round(one["agent"], 3)
    # one consumer process runs its Python on about one core; the path (and the load
    # generator) share every core of the machine
    rb.summary["ceiling_one_consumer_pps"] = (
        round(1e6 / one["consumers"]) if one["consumers"] else None
    )
    whole = path + one["agent"]
    rb.summary["ceiling_machine_pps"] = round(cores * 1e6 / whole) if whole else None
    rb.notes.append(
        f"CPU is in percent of one core over each timed run; the machine has {cores} cores, "
        "and 'machine' is everything it ran, other work included. One consumer process cannot "
        "go past ceiling_one_consumer_pps (its CPU per point on one core); the whole path, with "
        "its load generator, not past ceiling_machine_pps (its CPU per point on every core): "
        "more consumers raise one workspace's rate only while the first is below the second"
    )
