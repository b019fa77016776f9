"""vigil-agent's simulate mode as the load generator.

``vigil-agent --simulate N`` generates N virtual hosts of 1,383 node-exporter-like series each
(gzip'd line protocol, concurrent senders) and can send to the gateway, vigil-storage,
VictoriaMetrics or InfluxDB. PostgreSQL is not one of its targets: for it the runner's own
generator (``datagen``) renders the same shape of data as COPY rows.

A bounded run prints one summary line that :func:`parse_summary` reads.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .procs import Service, ServiceError
from .schema import ResourceSeries
from .systems import System
from .systems.base import bin_dir
from .systems.influxdb import DB as INFLUX_DB
from .systems.influxdb import InfluxDB
from .systems.vigil import VigilStack
from .systems.vm import WORKSPACE, VictoriaMetrics, VigilStorage

AGENT_TARGETS = {
    "vigil": "gateway",
    "vigil-storage": "storage",
    "victoriametrics": "vm",
    "influxdb": "influx",
}

_SUMMARY = re.compile(
    r"simulate: (?P<hosts>\d+) hosts x (?P<series>\d+) series, (?P<ticks>\d+) ticks"
    r" \((?P<first>\S+) \.\. (?P<last>\S+)\).*? in (?P<secs>[\d.]+)s:"
    r" generated (?P<points>\d+) points \((?P<lines>\d+) lines.*?; sent (?P<sent>\d+) points in"
    r" (?P<batches>\d+) batches, (?P<errors>\d+) send errors, (?P<dropped>\d+) points dropped"
)


@dataclass
class AgentResult:
    hosts: int
    ticks: int
    points: int
    lines: int
    sent: int
    batches: int
    errors: int
    dropped: int
    agent_seconds: float
    wall_seconds: float
    cpu_seconds: float
    first_tick: float | None = None
    last_tick: float | None = None

    @property
    def cpu_percent(self) -> float:
        """The agent's own CPU (user + system) over its run, percent of one core."""
        return 100.0 * self.cpu_seconds / self.wall_seconds if self.wall_seconds > 0 else 0.0

    @property
    def pps(self) -> float:
        return self.sent / self.agent_seconds if self.agent_seconds > 0 else 0.0


def agent_binary() -> Path:
    return bin_dir() / "vigil-agent"


def agent_available() -> str | None:
    """None when the agent can be used, else why not."""
    b = agent_binary()
    if not b.exists():
        return f"{b} is not built"
    try:
        out = subprocess.run([str(b), "-help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as e:
        return f"{b} does not run: {e}"
    if "-simulate.backfill" not in out.stderr + out.stdout:
        return f"{b} has no -simulate.backfill (an older build)"
    return None


def parse_summary(text: str) -> dict[str, float] | None:
    matches = list(_SUMMARY.finditer(text))
    if not matches:
        return None
    m = matches[-1]
    out: dict[str, float] = {}
    for k, v in m.groupdict().items():
        if k in ("first", "last"):
            # the first and the last tick's timestamp (RFC 3339, UTC), as Unix seconds
            try:
                out[k] = dt.datetime.fromisoformat(v.replace("Z", "+00:00")).timestamp()
            except ValueError:
                continue
        else:
            out[k] = float(v)
    return out


def agent_argv(
    system: System,
    workdir: Path,
    *,
    hosts: int,
    interval_s: float,
    extra: list[str],
    direct: bool = False,
) -> list[str]:
    """Arguments for sending to system; direct: to the stack's storage, bypassing Kafka."""
    target = "storage" if direct else AGENT_TARGETS.get(system.id)
    if target is None:
        raise ServiceError(f"vigil-agent cannot send to {system.id}")
    argv = [
        str(agent_binary()),
        f"-simulate={hosts}",
        f"-simulate.interval={interval_s}s",
        f"-target={target}",
        f"-buffer.path={workdir / 'agent-buffer'}",
        "-precision=ms",
    ]
    if isinstance(system, VigilStack):
        if direct:
            tok = workdir / "agent-token"
            tok.write_text(system.token)
            argv += [
                f"-gateway.url={system.storage_url}",
                f"-token.file={tok}",
                f"-storage.workspace={system.workspace}",
            ]
        else:
            argv += [f"-gateway.url={system.gateway_url}", f"-token={system.ingest_key}"]
    elif isinstance(system, VigilStorage):
        tok = workdir / "agent-token"
        tok.write_text(system.token)
        argv += [
            f"-gateway.url={system.url}",
            f"-token.file={tok}",
            f"-storage.workspace={WORKSPACE}",
        ]
    elif isinstance(system, InfluxDB):
        argv += [f"-gateway.url={system.url}", f"-influx.db={INFLUX_DB}"]
    elif isinstance(system, VictoriaMetrics):
        argv += [f"-gateway.url={system.url}"]
    return argv + extra


def start_agent(
    system: System,
    workdir: Path,
    *,
    hosts: int,
    interval_s: float,
    extra: list[str],
    name: str = "vigil-agent",
    direct: bool = False,
) -> Service:
    workdir.mkdir(parents=True, exist_ok=True)
    argv = agent_argv(
        system, workdir, hosts=hosts, interval_s=interval_s, extra=extra, direct=direct
    )
    return Service(name, argv, log_path=workdir / f"{name}.log").start()


def finish_agent(svc: Service, t0: float, timeout: float) -> AgentResult:
    assert svc.proc is not None
    # wait4 instead of Popen.wait: the rusage is the agent's exact CPU time, even for runs
    # shorter than one sampling interval.
    deadline = time.monotonic() + timeout
    cpu = 0.0
    while True:
        pid, status, ru = os.wait4(svc.proc.pid, os.WNOHANG)
        if pid:
            svc.proc.returncode = os.waitstatus_to_exitcode(status)
            cpu = ru.ru_utime + ru.ru_stime
            break
        if time.monotonic() > deadline:
            svc.stop()
            raise ServiceError(
                f"vigil-agent did not finish within {timeout:.0f} s; log:\n{svc.log_tail()}"
            )
        time.sleep(0.02)
    wall = time.monotonic() - t0
    svc.stop()
    text = svc.log_path.read_text(errors="replace")
    s = parse_summary(text)
    if s is None or svc.proc.returncode not in (0, None):
        raise ServiceError(
            f"vigil-agent exited {svc.proc.returncode} without a summary; log:\n{svc.log_tail()}"
        )
    res = AgentResult(
        hosts=int(s["hosts"]),
        ticks=int(s["ticks"]),
        points=int(s["points"]),
        lines=int(s["lines"]),
        sent=int(s["sent"]),
        batches=int(s["batches"]),
        errors=int(s["errors"]),
        dropped=int(s["dropped"]),
        agent_seconds=s["secs"],
        wall_seconds=wall,
        cpu_seconds=cpu,
        first_tick=s.get("first"),
        last_tick=s.get("last"),
    )
    return res


def with_agent_cpu(series: list[ResourceSeries], res: AgentResult) -> list[ResourceSeries]:
    """Replace the sampled generator CPU by the agent's exact rusage figure."""
    for r in series:
        if r.role == "generator":
            r.cpu_percent_mean = round(res.cpu_percent, 2)
            r.cpu_percent_max = max(r.cpu_percent_max, r.cpu_percent_mean)
    return series
