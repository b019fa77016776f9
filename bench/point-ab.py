#!/usr/bin/env python3
"""Point-queries A/B on a shared machine: two vigil-storage binaries and stock VictoriaMetrics
hold the same data (scenario 7's, `vigil-bench point-queries`), and each round sends the same
C concurrent queries (1,000 random series over 4 days each) to the three in turn, in a
rotating order, so all see the same background load; per round and server, the time until
the last answer is in and the server's CPU seconds, and the ratios of A and B to
VictoriaMetrics. Sequential runs of the scenario on a machine shared with other work drift by
far more than a change to the answer's handling moves them.

  .vigil/venv/bin/python bench/point-ab.py [-r rounds] [-c concurrent] A B

A and B are vigil-storage binaries, e.g. /tmp/vigil-storage-before .vigil/bin/vigil-storage.
Defaults: 6 rounds of 100 concurrent queries on 10,000 series sampled hourly for 4 days.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from vigil_bench.datagen import Dataset, HostShape, unaligned_start
from vigil_bench.scenarios.common import PayloadCache, load_dataset
from vigil_bench.scenarios.point_queries import _run_level
from vigil_bench.stats import median
from vigil_bench.systems.vm import VictoriaMetrics, VigilStorage


class _Binary(VigilStorage):
    def __init__(self, workdir: Path, binary: Path) -> None:
        super().__init__(workdir)
        self._bin = binary

    @property
    def bin(self) -> Path:
        return self._bin


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("-r", "--rounds", type=int, default=6)
    p.add_argument("-c", "--concurrent", type=int, default=100)
    p.add_argument("a", type=Path)
    p.add_argument("b", type=Path)
    args = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="point-ab."))
    servers = {
        "A": _Binary(work / "A", args.a.resolve()),
        "B": _Binary(work / "B", args.b.resolve()),
        "VM": VictoriaMetrics(work / "VM"),
    }
    days, interval, per_query = 4, 3600, 1000
    ds = Dataset(
        HostShape.named("point"),
        hosts=10_000,
        ticks=days * 86_400 // interval,
        start_ms=unaligned_start(int(time.time() * 1000) - 3 * 3_600_000 - days * 86_400_000),
        interval_ms=interval * 1000,
    )
    cache = PayloadCache()
    rows: dict[str, list[tuple[float, float]]] = {k: [] for k in servers}
    try:
        for s in servers.values():
            s.check()
            s.start()
            load_dataset(s, ds, cache, clients=2, label=f"loading {s.workdir.name}")
            s.settle()
            _run_level(s, 5, ds, per_query, seed=999)  # warm-up: caches, pooled buffers
        names = list(servers)
        for r in range(args.rounds):
            order = names[r % 3 :] + names[: r % 3]
            line = []
            for k in order:
                s = servers[k]
                pid = s.service.pid  # type: ignore[union-attr]
                c0 = cpu_seconds(pid)
                total, _, _ = _run_level(s, args.concurrent, ds, per_query, seed=r + 1)
                rows[k].append((total, cpu_seconds(pid) - c0))
                line.append(f"{k} {total:.2f} s {rows[k][-1][1]:.2f} cpu-s")
            a, b, vm = rows["A"][-1], rows["B"][-1], rows["VM"][-1]
            print(
                f"round {r + 1} ({' '.join(order)}): {', '.join(line)}; "
                f"A/VM {a[0] / vm[0]:.3f} B/VM {b[0] / vm[0]:.3f} (cpu {a[1] / vm[1]:.3f} {b[1] / vm[1]:.3f})",
                flush=True,
            )
    finally:
        for s in servers.values():
            s.stop()
        shutil.rmtree(work, ignore_errors=True)
    for i, what in ((0, "time"), (1, "cpu-s")):
        ra = [x[i] / y[i] for x, y in zip(rows["A"], rows["VM"], strict=True)]
        rb = [x[i] / y[i] for x, y in zip(rows["B"], rows["VM"], strict=True)]
        print(
            f"median {what}: A {median([x[i] for x in rows['A']]):.2f} B {median([x[i] for x in rows['B']]):.2f} "
            f"VM {median([x[i] for x in rows['VM']]):.2f}; A/VM {median(ra):.3f} B/VM {median(rb):.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
