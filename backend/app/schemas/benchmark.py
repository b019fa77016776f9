"""Benchmark runs: the result document ``vigil-bench`` writes, and what the API lists.

:class:`BenchmarkRunDocument` is the result document of schema version 1, field for field
(``bench/vigil_bench/schema.py`` is the producer; ``tests/test_benchmark_contract.py`` proves
the two agree on every stored result file). It is validated on upload, stored whole, and
returned whole by ``GET …/benchmarks/{benchmark_id}``; the list returns only the light parts
(:class:`BenchmarkScenarioOverview`: no measurements, resource samples or checks).

Unknown fields are refused rather than dropped: a newer runner that adds fields must bump
its schema version or this model must learn them, so no uploaded figure is silently lost.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

#: The result-document versions this backend reads.
SUPPORTED_SCHEMA_VERSIONS = (1,)

ParamValue = int | float | str | bool | list[int] | list[float] | list[str] | None
SummaryValue = float | str | bool | None


class _Document(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BenchmarkEnvironment(_Document):
    """Where the run happened: a report without its environment is not a report."""

    hostname: str = Field(max_length=255)
    cpu_model: str = Field(max_length=255)
    cpu_count: int = Field(ge=0, description="logical CPUs")
    cpu_physical_cores: int | None = Field(default=None, ge=0)
    memory_bytes: int = Field(ge=0)
    kernel: str = Field(max_length=255)
    os: str = Field(max_length=255)
    glibc: str = Field(max_length=64)
    python: str = Field(max_length=64)
    go: str | None = Field(default=None, max_length=255)
    system_versions: dict[str, str] = Field(
        default_factory=dict, description="version string of each system, by system id"
    )


class BenchmarkGenerator(_Document):
    """What produced the load, and why that one."""

    kind: Literal["vigil-agent", "builtin"]
    detail: str = ""


class BenchmarkSystem(_Document):
    """One compared system; an unavailable one carries the reason."""

    id: str = Field(min_length=1, max_length=64, examples=["vigil-storage"])
    available: bool
    version: str | None = None
    reason: str | None = None


class BenchmarkMeasurement(_Document):
    """One figure: e.g. vigil-storage, points_per_second = 1.2e6 (median of 3)."""

    system: str = Field(max_length=64)
    metric: str = Field(max_length=128, examples=["points_per_second"])
    value: float | None
    unit: str = Field(max_length=32, examples=["points/s"])
    labels: dict[str, str] = Field(default_factory=dict)
    x: float | None = Field(default=None, description="sweep position (batch size, clients)")
    repetitions: list[float] = Field(
        default_factory=list, description="the individual values the figure summarises"
    )


class BenchmarkResourceSample(_Document):
    t: float = Field(description="seconds since the sampler started")
    cpu_percent: float = Field(description="percent of one CPU (200 = two cores busy)")
    rss_bytes: int
    disk_bytes: int | None = None


class BenchmarkResourceSeries(_Document):
    """1 s samples of one process tree (a system, or the load generator)."""

    name: str = Field(max_length=128)
    role: Literal["system", "generator"]
    phase: str = ""
    cpu_percent_mean: float
    cpu_percent_max: float
    rss_bytes_max: int
    disk_bytes_start: int | None = None
    disk_bytes_end: int | None = None
    samples: list[BenchmarkResourceSample] = Field(default_factory=list)


class BenchmarkAnswerCheck(_Document):
    """Whether every system answered one question with the same numbers."""

    question: str
    ok: bool
    systems: list[str]
    detail: str = ""


class BenchmarkScenarioResult(_Document):
    scenario: str = Field(
        min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9-]*$", examples=["write-cost"]
    )
    title: str = Field(max_length=500)
    mode: Literal["small", "full"]
    parameters: dict[str, ParamValue] = Field(default_factory=dict)
    systems: list[BenchmarkSystem] = Field(default_factory=list)
    measurements: list[BenchmarkMeasurement] = Field(default_factory=list)
    resources: list[BenchmarkResourceSeries] = Field(default_factory=list)
    checks: list[BenchmarkAnswerCheck] = Field(default_factory=list)
    valid: bool = Field(default=True, description="false when answers differed or a run failed")
    summary: dict[str, SummaryValue] = Field(
        default_factory=dict, description="the headline figures (ratios and rates)"
    )
    notes: list[str] = Field(default_factory=list)
    started_at: datetime
    duration_s: float


class BenchmarkRunDocument(_Document):
    """A result document as ``vigil-bench`` writes it (``$VIGIL_HOME/bench/<run-id>.json``)."""

    schema_version: Literal[1] = Field(
        default=1, description="Result-document version; this backend reads version 1"
    )
    run_id: str = Field(min_length=1, max_length=200, examples=["20261121T060800Z-all"])
    created_at: datetime
    command: list[str] = Field(default_factory=list)
    environment: BenchmarkEnvironment
    generator: BenchmarkGenerator
    scenarios: list[BenchmarkScenarioResult] = Field(
        default_factory=list, min_length=1, max_length=64, validate_default=True
    )

    @model_validator(mode="before")
    @classmethod
    def _known_version(cls, data: Any) -> Any:
        """Name an unsupported version before anything else is checked against version 1;
        refuse NUL characters, which PostgreSQL text cannot hold, naming where they are."""
        where = _nul_path(data)
        if where is not None:
            raise PydanticCustomError(
                "nul_character",
                "text must not contain NUL (\\u0000) characters; found in {where}",
                {"where": where or "the document"},
            )
        if isinstance(data, dict) and "schema_version" in data:
            version = data["schema_version"]
            if version not in SUPPORTED_SCHEMA_VERSIONS or isinstance(version, bool):
                supported = ", ".join(str(v) for v in SUPPORTED_SCHEMA_VERSIONS)
                raise PydanticCustomError(
                    "unsupported_schema_version",
                    "unsupported schema_version {version}: this backend reads result documents "
                    "of schema_version {supported}",
                    {"version": repr(version), "supported": supported},
                )
        return data


def _nul_path(value: Any, path: str = "") -> str | None:
    """The dotted path of the first string (key or value) holding a NUL, if any."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and "\x00" in key:
                return here
            found = _nul_path(item, here)
            if found is not None:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _nul_path(item, f"{path}.{i}" if path else str(i))
            if found is not None:
                return found
    return None


class BenchmarkScenarioOverview(BaseModel):
    """A scenario without its heavy parts: what the list shows."""

    scenario: str
    title: str
    mode: Literal["small", "full"]
    valid: bool
    started_at: datetime
    duration_s: float
    systems: list[BenchmarkSystem]
    summary: dict[str, SummaryValue]


class BenchmarkRunSummary(BaseModel):
    """A stored run as the list shows it."""

    model_config = ConfigDict(from_attributes=True)

    id: uuid.UUID
    workspace_id: uuid.UUID
    run_id: str
    schema_version: int
    mode: Literal["small", "full", "mixed"] = Field(
        description="the scenarios' mode, or mixed when they differ"
    )
    valid: bool = Field(description="every scenario's comparison was valid")
    started_at: datetime = Field(description="when the first scenario started")
    created_at: datetime = Field(description="when the runner wrote the document")
    uploaded_at: datetime
    uploaded_by: uuid.UUID | None
    size_bytes: int = Field(description="size of the stored document")
    systems: list[str] = Field(description="ids of the systems that ran in any scenario")
    command: list[str]
    environment: BenchmarkEnvironment
    scenarios: list[BenchmarkScenarioOverview]


class BenchmarkRunsPublic(BaseModel):
    data: list[BenchmarkRunSummary]
    count: int = Field(description="runs matching the filter, across all pages")


class BenchmarkRunPublic(BenchmarkRunSummary):
    """A stored run with its whole result document."""

    document: BenchmarkRunDocument
