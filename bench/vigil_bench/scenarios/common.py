"""Helpers the scenarios share: datasets, landed-data checks, result assembly."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from ..datagen import Dataset, HostShape, unaligned_start
from ..httpconn import Http
from ..runner import LoadResult, RunContext, load, now_utc
from ..schema import AnswerCheck, Measurement, ResourceSeries, ScenarioResult, SystemInfo
from ..systems import System


def ticks_lasting(
    rate_pps: float, hosts: int, target_s: float, *, min_ticks: int, max_ticks: int
) -> int:
    """Ticks of ``hosts`` hosts (1,383 series each) that take about ``target_s`` at
    ``rate_pps``, within ``[min_ticks, max_ticks]``: how full modes size a repetition from the
    rate a calibration backfill measured."""
    return max(min_ticks, min(max_ticks, round(rate_pps * target_s / (hosts * 1383))))


def recent_dataset(
    shape: str,
    hosts: int,
    ticks: int,
    interval_s: int,
    *,
    end_lag_s: int = 3600,
    host_offset: int = 0,
) -> Dataset:
    """A dataset that ends end_lag_s before now (so no engine hides it as too recent)."""
    now_ms = int(time.time() * 1000)
    span = ticks * interval_s * 1000
    start = unaligned_start(now_ms - end_lag_s * 1000 - span)
    return Dataset(
        HostShape.named(shape),
        hosts=hosts,
        ticks=ticks,
        start_ms=start,
        interval_ms=interval_s * 1000,
        host_offset=host_offset,
    )


def landed_points(system: System, ds: Dataset) -> int | None:
    """Samples of cpu usage_user stored for ds's hosts (None when the system cannot say)."""
    expected_names = {
        "vigil-storage": "cpu:usage_user",
        "vigil": "cpu:usage_user",
        "victoriametrics": "cpu_usage_user",
    }
    lo, hi = ds.start_ms, ds.end_ms
    win = (hi - lo) // 1000 + 1
    if system.id in expected_names:
        http: Http = system.storage_http() if system.id == "vigil" else system.http()  # type: ignore[attr-defined]
        name = expected_names[system.id]
        hosts = "|".join(f"host-{h:05d}" for h in range(ds.host_offset, ds.host_offset + ds.hosts))
        q = f'sum(count_over_time({name}{{host=~"{hosts}"}}[{win}s]))'
        body = http.expect(
            "GET",
            "/api/v1/query",
            ok=(200,),
            params={"query": q, "time": f"{hi / 1000:.3f}", "nocache": "1"},
        )
        res = json.loads(body)["data"]["result"]
        return int(float(res[0]["value"][1])) if res else 0
    if system.id == "influxdb":
        from ..systems.influxdb import DB

        hosts = "|".join(f"host-{h:05d}" for h in range(ds.host_offset, ds.host_offset + ds.hosts))
        q = f"SELECT count(usage_user) FROM cpu WHERE host =~ /^({hosts})$/ AND time >= {lo}ms AND time < {hi}ms"
        body = Http(system.url).expect("POST", "/query", ok=(200,), params={"db": DB, "q": q})  # type: ignore[attr-defined]
        series = json.loads(body)["results"][0].get("series") or []
        return int(series[0]["values"][0][1]) if series else 0
    if system.id == "postgres":
        import psycopg

        lo_id = ds.host_offset * ds.shape.series_per_host + 1
        hi_id = (ds.host_offset + ds.hosts) * ds.shape.series_per_host
        with psycopg.connect(system.dsn) as c:  # type: ignore[attr-defined]
            row = c.execute(
                "SELECT count(*) FROM points p JOIN series s ON s.id = p.series_id"
                " WHERE s.measurement = 'cpu' AND s.field = 'usage_user'"
                " AND p.series_id BETWEEN %s AND %s",
                (lo_id, hi_id),
            ).fetchone()
        return int(row[0]) if row else 0
    return None


def expected_usage_user_points(ds: Dataset) -> int:
    per_host = sum(
        1 for ls in ds.shape.lines if ls.measurement == "cpu" and "usage_user" in ls.fields
    )
    return per_host * ds.hosts * ds.ticks


@dataclass
class ResultBuilder:
    ctx: RunContext
    scenario: str
    title: str
    parameters: dict[str, object]
    systems: list[SystemInfo] = field(default_factory=list)
    measurements: list[Measurement] = field(default_factory=list)
    resources: list[ResourceSeries] = field(default_factory=list)
    checks: list[AnswerCheck] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    summary: dict[str, float | str | bool | None] = field(default_factory=dict)
    valid: bool = True

    def __post_init__(self) -> None:
        self.started = now_utc()
        self._t0 = time.monotonic()

    def add(
        self,
        system: str,
        metric: str,
        value: float | None,
        unit: str,
        *,
        labels: dict[str, str] | None = None,
        x: float | None = None,
        reps: list[float] | None = None,
    ) -> None:
        self.measurements.append(
            Measurement(
                system=system,
                metric=metric,
                value=None if value is None else round(float(value), 6),
                unit=unit,
                labels=labels or {},
                x=x,
                repetitions=[round(r, 6) for r in reps or []],
            )
        )

    def build(self) -> ScenarioResult:
        for s in self.systems:
            if s.available and s.id in self.ctx.versions:
                s.version = self.ctx.versions[s.id]
        return ScenarioResult(
            scenario=self.scenario,
            title=self.title,
            mode="small" if self.ctx.small else "full",
            parameters=self.parameters,  # type: ignore[arg-type]
            systems=self.systems,
            measurements=self.measurements,
            resources=self.resources,
            checks=self.checks,
            valid=self.valid and all(c.ok for c in self.checks),
            summary=self.summary,
            notes=self.notes,
            started_at=self.started,
            duration_s=round(time.monotonic() - self._t0, 2),
        )


class PayloadCache:
    """Rendered payloads per (dataset, batch size, format): rendered once, sent many times."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, int, int, str, int], list[tuple[bytes, int, int]]] = {}

    def get(self, system: System, ds: Dataset, batch_lines: int) -> list[tuple[bytes, int, int]]:
        key = (id(ds), ds.start_ms, ds.host_offset, system.payload_format, batch_lines)
        if key not in self._cache:
            self._cache[key] = [
                (system.payload(c), c.points, c.lines) for c in ds.chunks(batch_lines)
            ]
        return self._cache[key]


def load_dataset(
    system: System,
    ds: Dataset,
    cache: PayloadCache,
    *,
    clients: int = 2,
    batch_lines: int = 5000,
    label: str = "",
) -> LoadResult:
    """Write ds to system; for the full Vigil path the time runs until storage has it all."""
    system.prepare(ds)
    payloads = cache.get(system, ds, batch_lines)
    before = system.consumer_lines() if system.id == "vigil" else 0.0  # type: ignore[attr-defined]
    t0 = time.monotonic()
    res = load(system, payloads, clients=clients, label=label or f"loading {system.id}")
    if system.id == "vigil":
        # 204 means "in Kafka"; end to end means "in storage"
        res.elapsed_s = system.wait_written(before, res.lines) - t0  # type: ignore[attr-defined]
    return res


def vigil_host_offset() -> int:
    """Host numbers for the shared stack's workspace that no earlier run used."""
    return 10_000 + int(time.time()) % 80_000
