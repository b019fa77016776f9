from __future__ import annotations

import datetime as dt

import pytest

from vigil_bench.schema import (
    AnswerCheck,
    BenchmarkRun,
    Environment,
    GeneratorInfo,
    Measurement,
    ResourceSample,
    ResourceSeries,
    ScenarioResult,
    SystemInfo,
)


@pytest.fixture
def sample_run() -> BenchmarkRun:
    t = dt.datetime(2026, 11, 21, 6, 0, tzinfo=dt.UTC)
    sc = ScenarioResult(
        scenario="storage-ingest",
        title="Storage ingest",
        mode="small",
        parameters={"hosts": 20, "levels": [1, 2], "generator": "vigil-agent"},
        systems=[
            SystemInfo(id="vigil-storage", available=True, version="vigil-storage-1"),
            SystemInfo(id="influxdb", available=False, reason="influxd is not built"),
        ],
        measurements=[
            Measurement(
                system="vigil-storage",
                metric="points_per_second",
                value=1.5e6,
                unit="points/s",
                repetitions=[1.4e6, 1.5e6, 1.6e6],
            ),
            Measurement(
                system="victoriametrics",
                metric="latency_ms_p50",
                value=0.25,
                unit="ms",
                labels={"query": "raw-1h", "language": "PromQL"},
                x=4,
            ),
        ],
        resources=[
            ResourceSeries(
                name="vigil-storage",
                role="system",
                phase="rep 1",
                cpu_percent_mean=80.5,
                cpu_percent_max=99.0,
                rss_bytes_max=100 << 20,
                disk_bytes_start=0,
                disk_bytes_end=5 << 20,
                samples=[
                    ResourceSample(t=1.0, cpu_percent=80.5, rss_bytes=100 << 20, disk_bytes=5 << 20)
                ],
            )
        ],
        checks=[
            AnswerCheck(question="raw-1h", ok=True, systems=["a", "b"], detail="same 12 points")
        ],
        summary={"ratio": 0.97, "pass": True},
        notes=["a | pipe"],
        started_at=t,
        duration_s=12.5,
    )
    return BenchmarkRun(
        run_id="20261121T060000Z-storage-ingest",
        created_at=t,
        command=["vigil-bench", "storage-ingest", "--small"],
        environment=Environment(
            hostname="h",
            cpu_model="AMD EPYC",
            cpu_count=2,
            memory_bytes=24 << 30,
            kernel="6.1",
            os="Debian 12",
            glibc="2.36",
            python="3.11.7",
            system_versions={"vigil-storage": "vigil-storage-1"},
        ),
        generator=GeneratorInfo(kind="vigil-agent", detail="simulate"),
        scenarios=[sc],
    )
