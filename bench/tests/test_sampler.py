from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import psutil

from vigil_bench.sampler import TreeSampler, dir_bytes, wait_quiet

# A parent that sleeps while its child burns CPU, holds ~64 MiB and writes 2 MiB to a dir:
# the sampler must see the whole tree, not only the root.
CHILD = r"""
import os, sys, time
data = bytearray(64 << 20)
for i in range(0, len(data), 4096):
    data[i] = 1
with open(os.path.join(sys.argv[1], "blob"), "wb") as f:
    f.write(os.urandom(2 << 20))
    f.flush()
    os.fsync(f.fileno())
end = time.time() + 30
while time.time() < end:
    pass
"""
PARENT = r"""
import subprocess, sys, time
p = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]])
p.wait()
"""


def test_tree_sampler_sees_children_cpu_rss_and_disk(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    proc = subprocess.Popen([sys.executable, "-c", PARENT, CHILD, str(data)])
    try:
        deadline = time.monotonic() + 10
        while not psutil.Process(proc.pid).children() and time.monotonic() < deadline:
            time.sleep(0.05)
        (child,) = psutil.Process(proc.pid).children()
        smp = TreeSampler(interval=0.3)
        smp.add("dummy", proc.pid, data_dir=str(data))
        smp.add("me", os.getpid(), role="generator", tree=False)
        before = sum(child.cpu_times()[:2]) + sum(psutil.Process(proc.pid).cpu_times()[:2])
        smp.start()
        time.sleep(2.0)
        series = smp.stop("phase")
        used = sum(child.cpu_times()[:2]) + sum(psutil.Process(proc.pid).cpu_times()[:2]) - before
    finally:
        for c in psutil.Process(proc.pid).children(recursive=True):
            c.kill()
        proc.kill()
        proc.wait()
    dummy, me = series
    assert dummy.role == "system" and me.role == "generator" and dummy.phase == "phase"
    assert len(dummy.samples) >= 4
    # CPU: what the samples add up to is the CPU time the grandchild really used (the
    # machine may be busy, so compare with the truth rather than with a fixed percentage).
    prev = 0.0
    sampled = 0.0
    for x in dummy.samples:
        sampled += x.cpu_percent / 100 * (x.t - prev)
        prev = x.t
    assert used > 0.1
    assert abs(sampled - used) < 0.25 * used + 0.05, (sampled, used)
    assert dummy.rss_bytes_max > 64 << 20
    assert dummy.disk_bytes_end is not None and dummy.disk_bytes_end >= 2 << 20
    assert me.disk_bytes_end is None


def test_dir_bytes_counts_allocated_blocks(tmp_path: Path) -> None:
    assert dir_bytes(None) is None
    assert dir_bytes(str(tmp_path / "missing")) == 0
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "f").write_bytes(b"x" * 10_000)
    assert (dir_bytes(str(tmp_path)) or 0) >= 10_000


# A parent that starts short-lived busy children one after the other and reaps each: their
# CPU must be counted once, whether a child was seen alive by a sample or not. Each child
# burns 0.4 s of CPU time (not of wall time), so a busy machine cannot starve the figure.
SERIAL = r"""
import subprocess, sys
for _ in range(6):
    subprocess.run([sys.executable, "-c", "import time\nend = time.process_time() + 0.4\nwhile time.process_time() < end: pass"])
"""


def test_reaped_children_are_counted_once() -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([sys.executable, "-c", SERIAL])
    smp = TreeSampler(interval=0.25)
    smp.add("serial", proc.pid)
    smp.start()
    deadline = time.monotonic() + 30
    while psutil.Process(proc.pid).status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
        time.sleep(0.05)
    (series,) = smp.stop()  # sampled while the parent is a zombie: its children are all reaped
    proc.wait(5)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # the parent and, through it, every reaped grandchild
    used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    prev = 0.0
    sampled = 0.0
    for x in series.samples:
        sampled += x.cpu_percent / 100 * (x.t - prev)
        prev = x.t
    assert used > 1.0
    assert abs(sampled - used) < 0.25 * used + 0.2, (sampled, used)


def test_wait_quiet_waits_while_busy_and_returns_once_idle() -> None:
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)  # past the interpreter's start-up
        assert wait_quiet([("idle", idle.pid)], window=0.3, limit=10) < 1.5
        waited = wait_quiet([("idle", idle.pid), ("busy", busy.pid)], window=0.3, limit=1.5)
        assert 1.5 <= waited < 3
    finally:
        for p in (idle, busy):
            p.kill()
            p.wait()
