"""Deterministic node-exporter-like data, rendered for every system from the same numbers.

A virtual host has a fixed *shape*: lines of one measurement and a tag set, each carrying
several fields. The ``node`` shape has 1,383 series per host (CPU per core and total, memory,
filesystems, block devices, network interfaces, interrupts, vmstat and nstat counters), the
size of a node_exporter target; the ``cpu`` shape keeps only the 17 ``cpu`` lines (170 series)
and is what the batch-size sweep calls a *row* (one line, ten values); the ``point`` shape is
one series per host, for the scenarios that pick series at random.

Values depend only on (host, series, tick): a chunk can be rendered on its own, in any
order, for any system, and every system receives exactly the same numbers. Timestamps are
``start_ms + tick * interval_ms``; callers choose a start that is not a multiple of any
bucket width (see :func:`unaligned_start`) so that half-open bucket boundaries, which the
query languages draw on different sides, never fall on a sample.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

PCT, GAUGE, COUNTER = 0, 1, 2


@dataclass(frozen=True)
class LineSpec:
    measurement: str
    tags: tuple[tuple[str, str], ...]  # without host, sorted by key
    fields: tuple[str, ...]
    kind: int


def _names(prefix: str, n: int) -> tuple[str, ...]:
    return tuple(f"{prefix}{i:03d}" for i in range(n))


def _node_shape() -> list[LineSpec]:
    cpu_fields = [
        "usage_user",
        "usage_system",
        "usage_idle",
        "usage_nice",
        "usage_iowait",
        "usage_irq",
        "usage_softirq",
        "usage_steal",
        "usage_guest",
        "usage_guest_nice",
    ]
    lines: list[LineSpec] = []
    for c in [f"cpu{i}" for i in range(16)] + ["cpu-total"]:
        lines.append(LineSpec("cpu", (("cpu", c),), tuple(cpu_fields), PCT))  # 17 x 10 = 170
    lines.append(LineSpec("mem", (), ("used_percent", "available_percent"), PCT))
    lines.append(LineSpec("mem", (("kind", "bytes"),), _names("bytes_", 38), GAUGE))  # 40
    lines.append(
        LineSpec("swap", (), ("total", "used", "free", "in", "out", "used_percent"), GAUGE)
    )
    disk_fields = ("total", "used", "free", "inodes_total", "inodes_used", "inodes_free")
    for i in range(10):  # 10 x (6 + 2) = 80
        tags = (("device", f"sd{chr(97 + i)}1"), ("fstype", "ext4"), ("path", f"/mnt/d{i}"))
        lines.append(LineSpec("disk", tags, disk_fields, GAUGE))
        lines.append(
            LineSpec("disk", (*tags, ("unit", "pct")), ("used_percent", "inodes_used_percent"), PCT)
        )
    diskio_fields = [
        "reads",
        "writes",
        "read_bytes",
        "write_bytes",
        "read_time",
        "write_time",
        "io_time",
        "weighted_io_time",
        "iops_in_progress",
        "merged_reads",
        "merged_writes",
        "discards",
    ]
    for i in range(10):  # 10 x 12 = 120
        lines.append(LineSpec("diskio", (("name", f"nvme{i}n1"),), tuple(diskio_fields), COUNTER))
    net_fields = [
        "bytes_sent",
        "bytes_recv",
        "packets_sent",
        "packets_recv",
        "err_in",
        "err_out",
        "drop_in",
        "drop_out",
        "multicast",
        "collisions",
        "fifo_in",
        "fifo_out",
        "frame_in",
        "compressed_in",
        "compressed_out",
        "carrier",
    ]
    for i in range(16):  # 16 x 16 = 256
        lines.append(LineSpec("net", (("interface", f"eth{i}"),), tuple(net_fields), COUNTER))
    lines.append(LineSpec("netstat", (), _names("tcp_", 30), GAUGE))  # 30
    lines.append(LineSpec("system", (), ("load1", "load5", "load15"), PCT))
    lines.append(
        LineSpec(
            "system",
            (("kind", "count"),),
            ("n_cpus", "n_users", "uptime", "boot_time", "context_switches"),
            GAUGE,
        )
    )
    lines.append(LineSpec("processes", (), _names("state_", 10), GAUGE))  # 10
    lines.append(
        LineSpec(
            "kernel",
            (),
            (
                "interrupts",
                "context_switches",
                "processes_forked",
                "entropy_avail",
                "boot_time",
                "disk_pages_in",
            ),
            COUNTER,
        )
    )
    for i in range(40):  # 40 x 3 = 120
        lines.append(LineSpec("interrupts", (("irq", f"{i}"),), ("cpu0", "cpu1", "total"), COUNTER))
    lines.append(LineSpec("nstat", (), _names("Tcp", 100), COUNTER))  # 100
    for i in range(30):  # 30 x 4 = 120
        lines.append(
            LineSpec("hwmon", (("sensor", f"temp{i}"),), ("input", "max", "crit", "alarm"), GAUGE)
        )
    for i in range(16):  # 16 x 3 = 48
        lines.append(
            LineSpec(
                "schedstat", (("cpu", f"{i}"),), ("running_ns", "waiting_ns", "timeslices"), COUNTER
            )
        )
    lines.append(LineSpec("vmstat", (), _names("pg", 200), COUNTER))  # 200
    lines.append(LineSpec("conntrack", (), ("entries", "entries_limit", "found", "invalid"), GAUGE))
    lines.append(LineSpec("sockstat", (), _names("sock_", 20), GAUGE))
    lines.append(LineSpec("timex", (), _names("timex_", 15), GAUGE))
    for i in range(16):  # 16
        lines.append(LineSpec("cpufreq", (("cpu", f"{i}"),), ("hz",), GAUGE))
    lines.append(LineSpec("filefd", (), ("allocated", "maximum", "unused", "entropy"), GAUGE))
    lines.append(LineSpec("time", (), ("unix", "zone_offset", "offset_ns"), GAUGE))
    lines.append(LineSpec("arp", (("device", "eth0"),), ("entries", "incomplete"), GAUGE))
    lines.append(LineSpec("edac", (), ("ce", "ue", "csrow_ce", "csrow_ue", "channel_ce"), COUNTER))
    return lines


def _cpu_shape() -> list[LineSpec]:
    return [ls for ls in _node_shape() if ls.measurement == "cpu"]


def _point_shape() -> list[LineSpec]:
    """One series per host (``pq`` ``v``, an integer gauge): a host number is a series number."""
    return [LineSpec("pq", (), ("v",), GAUGE)]


SHAPES = {"node": _node_shape, "cpu": _cpu_shape, "point": _point_shape}


@dataclass
class HostShape:
    """The lines one virtual host sends per tick, with precomputed render templates."""

    name: str
    lines: list[LineSpec]
    series_per_host: int = 0
    line_first_series: list[int] = field(default_factory=list)
    bases: list[int] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    kinds: list[int] = field(default_factory=list)

    @classmethod
    def named(cls, name: str) -> HostShape:
        try:
            lines = SHAPES[name]()
        except KeyError:
            raise ValueError(f"unknown host shape {name!r}; known: {', '.join(SHAPES)}") from None
        shape = cls(name=name, lines=lines)
        rnd = random.Random(20240601)
        j = 0
        for ls in lines:
            shape.line_first_series.append(j)
            for _ in ls.fields:
                shape.kinds.append(ls.kind)
                if ls.kind == PCT:
                    shape.bases.append(rnd.randrange(0, 9000))
                    shape.steps.append(0)
                elif ls.kind == GAUGE:
                    shape.bases.append(rnd.randrange(10, 10**9))
                    shape.steps.append(0)
                else:
                    shape.bases.append(rnd.randrange(0, 10**9))
                    shape.steps.append(rnd.randrange(1000, 10**6))
                j += 1
        shape.series_per_host = j
        return shape

    @property
    def lines_per_host(self) -> int:
        return len(self.lines)

    def series(self, host: int) -> Iterator[tuple[int, str, str, dict[str, str]]]:
        """(series id, measurement, field, tags) of every series of a host; ids start at 1."""
        j = 0
        for ls in self.lines:
            tags = {"host": host_name(host), **dict(ls.tags)}
            for f in ls.fields:
                yield host * self.series_per_host + j + 1, ls.measurement, f, tags
                j += 1


def host_name(host: int) -> str:
    return f"host-{host:05d}"


_NOISE = [random.Random(7).randrange(0, 1000) for _ in range(4096)]


def _escape_tag(v: str) -> str:
    return v.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=").replace(" ", "\\ ")


def value_text(kind: int, base: int, step: int, host: int, series: int, tick: int) -> str:
    """The decimal text of one sample; every system parses this same text."""
    n = _NOISE[(host * 7919 + series * 104729 + tick * 1543) & 4095]
    if kind == PCT:
        v = (base + n * 3 + tick * 37) % 10000
        return f"{v // 100}.{v % 100:02d}"
    if kind == GAUGE:
        return str(base + n * 1000)
    return str(base + tick * step + n)


@dataclass(frozen=True)
class Dataset:
    """hosts x ticks of a shape, from start_ms every interval_ms."""

    shape: HostShape
    hosts: int
    ticks: int
    start_ms: int
    interval_ms: int
    host_offset: int = 0

    @property
    def lines_total(self) -> int:
        return self.hosts * self.ticks * self.shape.lines_per_host

    @property
    def points_total(self) -> int:
        return self.hosts * self.ticks * self.shape.series_per_host

    @property
    def end_ms(self) -> int:
        """One interval past the last sample."""
        return self.start_ms + self.ticks * self.interval_ms

    def chunks(self, lines_per_chunk: int) -> Iterator[Chunk]:
        """Consecutive chunks in (tick, host, line) order."""
        total = self.lines_total
        for lo in range(0, total, lines_per_chunk):
            yield Chunk(self, lo, min(total, lo + lines_per_chunk))

    def chunks_between(self, lo: int, hi: int, lines_per_chunk: int) -> Iterator[Chunk]:
        """Chunks covering lines [lo, hi) only."""
        for a in range(lo, min(hi, self.lines_total), lines_per_chunk):
            yield Chunk(self, a, min(hi, self.lines_total, a + lines_per_chunk))

    def series(self) -> Iterator[tuple[int, str, str, dict[str, str]]]:
        for h in range(self.host_offset, self.host_offset + self.hosts):
            yield from self.shape.series(h)


def unaligned_start(anchor_ms: int, align_ms: int = 3_600_000, offset_ms: int = 1_234) -> int:
    """A start time offset from every bucket boundary up to align_ms."""
    return anchor_ms - anchor_ms % align_ms + offset_ms


@dataclass(frozen=True)
class Chunk:
    """Lines [lo, hi) of a dataset in its (tick, host, line) order."""

    ds: Dataset
    lo: int
    hi: int

    @property
    def lines(self) -> int:
        return self.hi - self.lo

    @property
    def points(self) -> int:
        shape = self.ds.shape
        if self.hi - self.lo == 0:
            return 0
        total = 0
        for _tick, _host, li in self._iter():
            total += len(shape.lines[li].fields)
        return total

    def _iter(self) -> Iterator[tuple[int, int, int]]:
        lph = self.ds.shape.lines_per_host
        per_tick = lph * self.ds.hosts
        for i in range(self.lo, self.hi):
            tick, rem = divmod(i, per_tick)
            h, li = divmod(rem, lph)
            yield tick, h + self.ds.host_offset, li

    def line_protocol(self, precision: str = "ms") -> bytes:
        """Influx line protocol; timestamps in ms (precision=ms) or ns."""
        shape = self.ds.shape
        mult = 1 if precision == "ms" else 1_000_000
        prefixes: dict[tuple[int, int], str] = {}
        out: list[str] = []
        for tick, host, li in self._iter():
            ls = shape.lines[li]
            key = (host, li)
            prefix = prefixes.get(key)
            if prefix is None:
                tags = sorted((("host", host_name(host)), *ls.tags))
                prefix = ls.measurement + "".join(f",{k}={_escape_tag(v)}" for k, v in tags) + " "
                prefixes[key] = prefix
            j0 = shape.line_first_series[li]
            vals = ",".join(
                f"{f}={value_text(shape.kinds[j0 + n], shape.bases[j0 + n], shape.steps[j0 + n], host, j0 + n, tick)}"
                for n, f in enumerate(ls.fields)
            )
            out.append(f"{prefix}{vals} {(self.ds.start_ms + tick * self.ds.interval_ms) * mult}\n")
        return "".join(out).encode()

    def copy_rows(self) -> bytes:
        """Tab-separated (series_id, ts, value) rows for PostgreSQL COPY."""
        shape = self.ds.shape
        sph = shape.series_per_host
        stamps: dict[int, str] = {}
        out: list[str] = []
        for tick, host, li in self._iter():
            ts = stamps.get(tick)
            if ts is None:
                ms = self.ds.start_ms + tick * self.ds.interval_ms
                ts = dt.datetime.fromtimestamp(ms / 1000, dt.UTC).isoformat()
                stamps[tick] = ts
            j0 = shape.line_first_series[li]
            base_id = host * sph + 1
            for n in range(len(shape.lines[li].fields)):
                j = j0 + n
                v = value_text(shape.kinds[j], shape.bases[j], shape.steps[j], host, j, tick)
                out.append(f"{base_id + j}\t{ts}\t{v}\n")
        return "".join(out).encode()


def series_copy_rows(ds: Dataset) -> bytes:
    """Rows for the series table: id, measurement, field, tags (JSON)."""
    out = []
    for sid, m, f, tags in ds.series():
        tj = json.dumps(tags, sort_keys=True).replace("\\", "\\\\")
        out.append(f"{sid}\t{m}\t{f}\t{tj}\n")
    return "".join(out).encode()
