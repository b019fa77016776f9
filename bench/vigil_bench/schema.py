"""The result document of a benchmark run, versioned.

A run (:class:`BenchmarkRun`) holds the environment it ran in, the generator it used, and one
:class:`ScenarioResult` per scenario. Figures are flat :class:`Measurement` rows (system,
metric, value, unit, labels) so that tables, CSV export and plots read them the same way; a
sweep puts its x value (batch size, client count) in ``x``. The backend stores the same
document (``POST /api/v1/workspaces/{workspace_id}/benchmarks``).

Bump :data:`SCHEMA_VERSION` on any change that is not a pure addition of optional fields.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1

ParamValue = int | float | str | bool | list[int] | list[float] | list[str] | None


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Environment(_Model):
    """Where the run happened: a report without its environment is not a report."""

    hostname: str
    cpu_model: str
    cpu_count: int = Field(description="logical CPUs")
    cpu_physical_cores: int | None = None
    memory_bytes: int
    kernel: str
    os: str
    glibc: str
    python: str
    go: str | None = None
    system_versions: dict[str, str] = Field(
        default_factory=dict, description="version string of each system, by system id"
    )


class GeneratorInfo(_Model):
    """What produced the load, and why that one."""

    kind: Literal["vigil-agent", "builtin"]
    detail: str = ""


class SystemInfo(_Model):
    """One compared system; an unavailable one carries the reason."""

    id: str
    available: bool
    version: str | None = None
    reason: str | None = None


class Measurement(_Model):
    """One figure: e.g. vigil-storage, points_per_second = 1.2e6 (median of 3)."""

    system: str
    metric: str
    value: float | None
    unit: str
    labels: dict[str, str] = Field(default_factory=dict)
    x: float | None = Field(default=None, description="sweep position (batch size, clients)")
    repetitions: list[float] = Field(
        default_factory=list, description="the individual values the figure summarises"
    )


class ResourceSample(_Model):
    t: float = Field(description="seconds since the sampler started")
    cpu_percent: float = Field(description="percent of one CPU (200 = two cores busy)")
    rss_bytes: int
    disk_bytes: int | None = None


class ResourceSeries(_Model):
    """1 s samples of one process tree (a system, or the load generator)."""

    name: str
    role: Literal["system", "generator"]
    phase: str = ""
    cpu_percent_mean: float
    cpu_percent_max: float
    rss_bytes_max: int
    disk_bytes_start: int | None = None
    disk_bytes_end: int | None = None
    samples: list[ResourceSample] = Field(default_factory=list)


class AnswerCheck(_Model):
    """Whether every system answered one question with the same numbers."""

    question: str
    ok: bool
    systems: list[str]
    detail: str = ""


class ScenarioResult(_Model):
    scenario: str
    title: str
    mode: Literal["small", "full"]
    parameters: dict[str, ParamValue] = Field(default_factory=dict)
    systems: list[SystemInfo] = Field(default_factory=list)
    measurements: list[Measurement] = Field(default_factory=list)
    resources: list[ResourceSeries] = Field(default_factory=list)
    checks: list[AnswerCheck] = Field(default_factory=list)
    valid: bool = Field(default=True, description="false when answers differed or a run failed")
    summary: dict[str, float | str | bool | None] = Field(
        default_factory=dict, description="the headline figures (ratios and rates)"
    )
    notes: list[str] = Field(default_factory=list)
    started_at: dt.datetime
    duration_s: float


class BenchmarkRun(_Model):
    schema_version: Literal[1] = 1
    run_id: str
    created_at: dt.datetime
    command: list[str] = Field(default_factory=list)
    environment: Environment
    generator: GeneratorInfo
    scenarios: list[ScenarioResult] = Field(default_factory=list)

    def to_json(self) -> str:
        return self.model_dump_json(indent=2)

    @classmethod
    def from_json(cls, text: str | bytes) -> BenchmarkRun:
        return cls.model_validate_json(text)
