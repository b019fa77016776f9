"""What scenarios share: the run context, system sessions, concurrent loading, timing."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import queue
import shutil
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .procs import ServiceError
from .progress import Progress, log
from .sampler import TreeSampler
from .schema import SystemInfo
from .systems import SYSTEMS, System, Unavailable
from .systems.base import vigil_home


def results_dir() -> Path:
    return vigil_home() / "bench"


@dataclass
class RunContext:
    """State of one ``vigil-bench`` invocation."""

    mode: str
    systems: list[str]
    workdir: Path
    keep: bool = False
    versions: dict[str, str] = field(default_factory=dict)
    _n: int = 0

    @classmethod
    def create(
        cls, mode: str, systems: list[str], keep: bool = False, tmp: str | None = None
    ) -> RunContext:
        wd = Path(tempfile.mkdtemp(prefix="vigil-bench-", dir=tmp))
        wd.chmod(0o755)
        return cls(mode=mode, systems=systems, workdir=wd, keep=keep)

    def cleanup(self) -> None:
        if not self.keep:
            shutil.rmtree(self.workdir, ignore_errors=True)

    @property
    def small(self) -> bool:
        return self.mode == "small"

    def new_system(self, system_id: str) -> System:
        self._n += 1
        return SYSTEMS[system_id](self.workdir / f"{self._n:03d}-{system_id}")

    def probe(self, system_ids: Iterable[str]) -> tuple[list[str], list[SystemInfo]]:
        """Which systems can run here; unavailable ones keep their reason."""
        ok: list[str] = []
        infos: list[SystemInfo] = []
        for sid in system_ids:
            s = SYSTEMS[sid](self.workdir / "probe")
            try:
                s.check()
            except (Unavailable, ServiceError) as e:
                log(f"{sid}: unavailable: {e}")
                infos.append(SystemInfo(id=sid, available=False, reason=str(e)))
                continue
            ok.append(sid)
            v = s.version()
            if v != "unknown":
                self.versions[sid] = v
            infos.append(SystemInfo(id=sid, available=True, version=self.versions.get(sid)))
        return ok, infos

    @contextlib.contextmanager
    def session(self, system_id: str) -> Iterator[System]:
        """A started system in a fresh data directory, stopped (and deleted) afterwards."""
        s = self.new_system(system_id)
        s.check()
        s.start()
        if s.version() != "unknown":
            self.versions[system_id] = s.version()
        try:
            yield s
        finally:
            s.stop()
            if not self.keep and s.id != "vigil":
                shutil.rmtree(s.workdir, ignore_errors=True)


def sampler_for(system: System, *, generator: bool = True) -> TreeSampler:
    smp = TreeSampler(1.0)
    procs = system.processes()
    for i, (name, pid) in enumerate(procs):
        # The data dir is measured once, with the last process (the storage one of a stack).
        last = i == len(procs) - 1
        data_dir = str(system.data_dir) if system.data_dir and last else None
        smp.add(name, pid, role="system", data_dir=data_dir)
    if generator:
        smp.add("generator (vigil-bench)", os.getpid(), role="generator", tree=False)
    return smp


@dataclass
class LoadResult:
    points: int
    lines: int
    requests: int
    elapsed_s: float
    latencies_s: list[float]

    @property
    def pps(self) -> float:
        return self.points / self.elapsed_s if self.elapsed_s > 0 else 0.0


def load(
    system: System,
    payloads: list[tuple[bytes, int, int]],
    *,
    clients: int,
    label: str = "",
    rate_pps: float | None = None,
    deadline_s: float | None = None,
) -> LoadResult:
    """Write prepared payloads with `clients` concurrent connections; time until all acked.

    With rate_pps the payloads are paced to that many points per second overall. With
    deadline_s no payload is started after that many seconds: the result counts the payloads
    written (the time runs until the last of them was acknowledged).
    """
    work: queue.Queue[tuple[bytes, int, int] | None] = queue.Queue()
    for p in payloads:
        work.put(p)
    for _ in range(clients):
        work.put(None)
    total_points = sum(p[1] for p in payloads)
    prog = Progress(label or f"{system.id} x{clients}", total_points)
    lock = threading.Lock()
    latencies: list[float] = []
    errors: list[BaseException] = []
    sent = [0]
    written = [0, 0, 0]  # points, lines, requests
    t0 = time.monotonic()
    stop_at = None if deadline_s is None else t0 + deadline_s

    def worker() -> None:
        w = system.writer()
        try:
            while True:
                item = work.get()
                if item is None or errors:
                    return
                if stop_at is not None and time.monotonic() >= stop_at:
                    return
                body, pts, _ = item
                if rate_pps:
                    with lock:
                        due = t0 + sent[0] / rate_pps
                        sent[0] += pts
                    delay = due - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                s = time.monotonic()
                w.write(body)
                d = time.monotonic() - s
                with lock:
                    latencies.append(d)
                    prog.advance(pts)
                    written[0] += pts
                    written[1] += item[2]
                    written[2] += 1
        except BaseException as e:  # noqa: BLE001 - reported to the caller below
            errors.append(e)
        finally:
            w.close()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    prog.close()
    if errors:
        raise errors[0]
    return LoadResult(
        points=written[0],
        lines=written[1],
        requests=written[2],
        elapsed_s=elapsed,
        latencies_s=latencies,
    )


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
