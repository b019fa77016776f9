"""1 s resource sampling of process trees: CPU %, RSS and the disk bytes of a data dir.

CPU % is computed from the CPU time (user + system) the whole tree consumed between two
samples, so threads and short-lived children (also those reaped between two samples) are
counted; 100 % is one core busy.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

import psutil

from .schema import ResourceSample, ResourceSeries


def dir_bytes(path: str | None) -> int | None:
    """Bytes allocated on disk below path (like ``du``), or None when there is no path."""
    if not path:
        return None
    total = 0
    stack = [path]
    while stack:
        d = stack.pop()
        try:
            it = os.scandir(d)
        except OSError:
            continue
        with it:
            for e in it:
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                else:
                    total += st.st_blocks * 512
    return total


@dataclass
class _Target:
    name: str
    pid: int
    role: str
    data_dir: str | None
    tree: bool = True
    procs: dict[int, psutil.Process] = field(default_factory=dict)
    cpu_seen: dict[int, float] = field(default_factory=dict)
    samples: list[ResourceSample] = field(default_factory=list)
    disk_start: int | None = None
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0


class TreeSampler:
    """Samples named process trees in a background thread until stopped.

    >>> s = TreeSampler(interval=1.0)
    >>> s.add("victoriametrics", pid, data_dir="/tmp/x")
    >>> s.start(); ...; series = s.stop()
    """

    def __init__(self, interval: float = 1.0) -> None:
        self.interval = interval
        self._targets: list[_Target] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._t0 = 0.0
        self._last = 0.0

    def add(
        self,
        name: str,
        pid: int,
        *,
        role: str = "system",
        data_dir: str | None = None,
        tree: bool = True,
    ) -> None:
        """Sample pid (and, with tree, all its descendants) under name."""
        self._targets.append(_Target(name=name, pid=pid, role=role, data_dir=data_dir, tree=tree))

    def _tree_cpu_rss(self, t: _Target) -> tuple[float, int]:
        """Total CPU seconds consumed since the last call, and current RSS, of t's tree."""
        try:
            root = t.procs.get(t.pid) or psutil.Process(t.pid)
            t.procs[t.pid] = root
            tree = [root, *root.children(recursive=True)] if t.tree else [root]
        except psutil.Error:
            return 0.0, 0
        delta = 0.0
        rss = 0
        alive: set[int] = set()
        for p in tree:
            p = t.procs.setdefault(p.pid, p)
            try:
                with p.oneshot():
                    ct = p.cpu_times()
                    used = ct.user + ct.system
                    if t.tree:
                        # Reaped children: a PostgreSQL backend that exited between two
                        # samples still counts, through its parent.
                        used += ct.children_user + ct.children_system
                    rss += p.memory_info().rss
            except psutil.Error:
                continue
            alive.add(p.pid)
            # A process first seen now started during the interval: all its CPU time counts.
            delta += max(0.0, used - t.cpu_seen.get(p.pid, 0.0))
            t.cpu_seen[p.pid] = used
        for pid in list(t.procs):
            if pid not in alive:
                t.procs.pop(pid, None)
                seen = t.cpu_seen.pop(pid, 0.0)
                if t.tree:
                    # Its parent reaped it, so its whole CPU time just entered the parent's
                    # children_* times: the part already counted must not count twice.
                    delta -= seen
        return max(0.0, delta), rss

    def _prime(self) -> None:
        for t in self._targets:
            self._tree_cpu_rss(t)  # records the baseline CPU times
            t.disk_start = dir_bytes(t.data_dir)

    def sample_once(self) -> None:
        now = time.monotonic()
        elapsed = max(1e-6, now - self._last)
        self._last = now
        for t in self._targets:
            cpu_s, rss = self._tree_cpu_rss(t)
            t.cpu_seconds += cpu_s
            t.wall_seconds += elapsed
            t.samples.append(
                ResourceSample(
                    t=round(now - self._t0, 3),
                    cpu_percent=round(100.0 * cpu_s / elapsed, 2),
                    rss_bytes=rss,
                    disk_bytes=dir_bytes(t.data_dir),
                )
            )

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample_once()

    def start(self) -> TreeSampler:
        self._t0 = self._last = time.monotonic()
        self._prime()
        self._thread = threading.Thread(target=self._run, name="tree-sampler", daemon=True)
        self._thread.start()
        return self

    def stop(self, phase: str = "") -> list[ResourceSeries]:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if time.monotonic() - self._last > 0.2:
            # The partial last interval; a short pause first lets parents reap children that
            # just exited (their CPU time then shows in the parent's children_* times).
            time.sleep(0.2)
            self.sample_once()
        out = []
        for t in self._targets:
            cpus = [s.cpu_percent for s in t.samples] or [0.0]
            # The mean is time-weighted: total CPU time over total wall time.
            mean = 100.0 * t.cpu_seconds / t.wall_seconds if t.wall_seconds > 0 else 0.0
            out.append(
                ResourceSeries(
                    name=t.name,
                    role="generator" if t.role == "generator" else "system",
                    phase=phase,
                    cpu_percent_mean=round(mean, 2),
                    cpu_percent_max=max(cpus),
                    rss_bytes_max=max((s.rss_bytes for s in t.samples), default=0),
                    disk_bytes_start=t.disk_start,
                    disk_bytes_end=t.samples[-1].disk_bytes if t.samples else t.disk_start,
                    samples=t.samples,
                )
            )
        return out


def tree_rss_bytes(pid: int) -> int:
    """Resident memory of a process and all its descendants now (0 when it is gone)."""
    try:
        root = psutil.Process(pid)
        tree = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for p in tree:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            continue
    return total


def wait_quiet(
    procs: list[tuple[str, int]],
    *,
    below_percent: float = 10.0,
    window: float = 1.0,
    limit: float = 30.0,
) -> float:
    """Seconds waited until the process trees together used less than below_percent of one
    core over one window (at most about limit): right after a saturating write, engines still
    flush and merge what they just took, and that work belongs to the write that caused it."""
    smp = TreeSampler(window)
    for name, pid in procs:
        smp.add(name, pid)
    t0 = smp._t0 = smp._last = time.monotonic()
    smp._prime()
    while True:
        time.sleep(window)
        smp.sample_once()
        busy = sum(t.samples[-1].cpu_percent for t in smp._targets)
        waited = time.monotonic() - t0
        if busy < below_percent or waited >= limit:
            return waited


def settled_dir_bytes(
    path: str, *, min_wait: float = 12.0, quiet: float = 3.0, limit: float = 60.0
) -> int:
    """Bytes below path once it stopped changing for `quiet` seconds (after at least
    `min_wait`, at most `limit`): engines flush in-memory parts on their own schedule
    (VictoriaMetrics: in-memory parts every 5 s, seen landing 8-10 s after a force_flush),
    so an early reading would miss data that is still in RAM."""
    t0 = time.monotonic()
    last = dir_bytes(path) or 0
    since = time.monotonic()
    while time.monotonic() - t0 < limit:
        time.sleep(0.5)
        now = dir_bytes(path) or 0
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - t0 >= min_wait and time.monotonic() - since >= quiet:
            break
    return last
