"""The dashboard model: typed, versioned, validated on write and published in OpenAPI.

A dashboard is ``title`` + ``description`` + ``tags`` + a ``spec``. The spec carries its
``schema_version``; panels are a discriminated union on ``type``.
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from typing import Annotated, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.schemas.common import Name200

SCHEMA_VERSION = 1
GRID_COLUMNS = 24
MAX_PANELS = 200

_COLOR = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-z]+)$")
_VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
# A DQL duration such as ``1d``, ``12h`` or ``1h30m``: the UI's ``parseTimeShift`` reads the same.
_DURATION_PART = re.compile(r"([0-9]+)(ms|s|m|h|d|w)")
_DURATION_MS = {"ms": 1, "s": 1_000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000}
MAX_TIME_SHIFT_MS = 365 * 86_400_000


def duration_ms(text: str) -> int | None:
    """``1d`` -> 86 400 000; None unless the whole text is number+unit parts."""
    total, pos = 0, 0
    while pos < len(text):
        m = _DURATION_PART.match(text, pos)
        if m is None:
            return None
        total += int(m.group(1)) * _DURATION_MS[m.group(2)]
        pos = m.end()
    return total if pos > 0 else None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GridPos(_Strict):
    """Position on a 24-column grid; ``h`` in grid rows."""

    x: int = Field(ge=0, lt=GRID_COLUMNS)
    y: int = Field(ge=0, le=10_000)
    w: int = Field(ge=1, le=GRID_COLUMNS)
    h: int = Field(ge=1, le=100)

    @model_validator(mode="after")
    def _fits(self) -> GridPos:
        if self.x + self.w > GRID_COLUMNS:
            raise ValueError(f"x + w must be at most {GRID_COLUMNS} (got {self.x} + {self.w})")
        return self


QueryLanguage = Literal["dql", "promql"]


class PanelQuery(_Strict):
    """One query of a panel, DQL or PromQL; ``$name`` refers to a dashboard variable."""

    ref_id: str = Field(default="A", pattern=r"^[A-Za-z0-9_]{1,16}$")
    language: QueryLanguage = Field(
        default="dql",
        description="dql, or promql: run through the Prometheus-compatible API over the "
        "panel's range, one point per step",
    )
    query: str = Field(min_length=1, max_length=65536)
    legend_format: str | None = Field(
        default=None,
        max_length=200,
        description="e.g. '{{host}}' (a tag's or label's value); default: series name + tags",
    )
    hidden: bool = False
    min_step: str | None = Field(
        default=None,
        max_length=32,
        examples=["30s"],
        description="PromQL: the shortest step between points (Grafana's min interval); "
        "null = the range divided into at most 720 points",
    )

    @field_validator("min_step")
    @classmethod
    def _min_step(cls, value: str | None) -> str | None:
        if value is None:
            return None
        ms = duration_ms(value)
        if ms is None or ms < 1_000:
            raise ValueError(
                f"min_step must be a duration of at least 1s such as 15s or 1m (got {value!r})"
            )
        return value


class Threshold(_Strict):
    value: float
    color: str = Field(max_length=32, examples=["#e02f44", "red"])

    @field_validator("color")
    @classmethod
    def _color(cls, value: str) -> str:
        if not _COLOR.match(value):
            raise ValueError("color must be a #hex value or a lowercase color name")
        return value


class Legend(_Strict):
    show: bool = True
    position: Literal["bottom", "right"] = "bottom"
    values: list[Literal["last", "min", "max", "avg", "sum"]] = Field(default_factory=list)


Unit = Annotated[
    str,
    Field(
        max_length=32,
        description="none, short, percent, percentunit, bytes, bytes/s, bits/s, s, ms, us, ns, "
        "ops/s, …",
    ),
]
Reducer = Literal["last", "first", "avg", "min", "max", "sum", "count"]


class _PanelCommon(_Strict):
    id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    title: str = Field(default="", max_length=200)
    description: str = Field(default="", max_length=2000)
    grid: GridPos


class _Repeatable(_PanelCommon):
    """A panel that can be drawn once per value of a variable (``repeat``)."""

    repeat: str | None = Field(
        default=None,
        max_length=64,
        examples=["host"],
        description="a variable's name: the panel is drawn once per selected value of it (every "
        "value when none or All is selected), each copy with the variable set to its value; "
        "null = once",
    )
    repeat_direction: Literal["h", "v"] = Field(
        default="h",
        description="h: the copies side by side, `max_per_row` to a row; v: one under another",
    )
    max_per_row: int = Field(default=4, ge=1, le=GRID_COLUMNS)


class _PanelBase(_Repeatable):
    """A panel that draws the result of its DQL queries."""

    queries: list[PanelQuery] = Field(min_length=1, max_length=10)
    unit: Unit = "none"
    decimals: int | None = Field(default=None, ge=0, le=10)
    thresholds: list[Threshold] = Field(default_factory=list, max_length=20)
    legend: Legend = Field(default_factory=Legend)


class TimeseriesPanel(_PanelBase):
    type: Literal["timeseries"] = "timeseries"
    stack: bool = False
    line_width: int = Field(default=1, ge=0, le=10)
    show_points: bool = False


class AreaPanel(_PanelBase):
    type: Literal["area"] = "area"
    stack: bool = False
    fill_opacity: float = Field(default=0.3, ge=0, le=1)


class BarPanel(_PanelBase):
    type: Literal["bar"] = "bar"
    stack: bool = False
    orientation: Literal["vertical", "horizontal"] = "vertical"


class StatPanel(_PanelBase):
    type: Literal["stat"] = "stat"
    reduce: Reducer = "last"
    sparkline: bool = True


class GaugePanel(_PanelBase):
    """One dial per series: its value (reduced as ``reduce`` says) between ``min`` and ``max``,
    coloured by the thresholds, which are drawn as bands around the dial."""

    type: Literal["gauge"] = "gauge"
    reduce: Reducer = "last"
    min: float | None = Field(default=None, description="the dial's start; null = 0")
    max: float | None = Field(
        default=None,
        description="the dial's end; null = 100 for percent (1 for percentunit), else the "
        "largest value rounded up",
    )

    @model_validator(mode="after")
    def _range(self) -> GaugePanel:
        if self.min is not None and self.max is not None and self.min >= self.max:
            raise ValueError(f"gauge min must be below max (got min {self.min}, max {self.max})")
        return self


class TablePanel(_PanelBase):
    type: Literal["table"] = "table"
    reduce: Reducer | None = Field(
        default=None, description="null: one row per point; otherwise one row per series"
    )
    page_size: int = Field(default=20, ge=1, le=1000)


class HeatmapPanel(_PanelBase):
    type: Literal["heatmap"] = "heatmap"
    color_scheme: Literal["blues", "greens", "oranges", "reds", "spectral", "viridis"] = "viridis"


class TopListPanel(_PanelBase):
    type: Literal["toplist"] = "toplist"
    reduce: Reducer = "avg"
    limit: int = Field(default=10, ge=1, le=100)
    order: Literal["desc", "asc"] = "desc"


class TextPanel(_Repeatable):
    """Notes beside the charts: Markdown (CommonMark with tables), no query.

    ``$name`` in the text reads the variable's value, filled in as plain text after the
    Markdown is drawn (URL-encoded inside links and images): a value can add no markup. HTML in
    the text is kept, sanitised when drawn: scripts, styles, event handlers and ``javascript:``
    links are removed.
    """

    type: Literal["text"] = "text"
    content: str = Field(
        default="", max_length=20_000, examples=["## Runbook\nSee [the wiki](https://…)."]
    )


DrawnPanel = Annotated[
    TimeseriesPanel
    | AreaPanel
    | BarPanel
    | StatPanel
    | GaugePanel
    | TablePanel
    | HeatmapPanel
    | TopListPanel
    | TextPanel,
    Field(discriminator="type"),
]


class RowPanel(_PanelCommon):
    """A collapsible heading across the dashboard that groups the panels below it.

    The panels after a row (by ``grid.y``) up to the next row belong to it. An expanded row's
    panels are in the dashboard's ``panels`` like any other; a collapsed row holds its panels in
    its own ``panels`` (their ``grid`` as they were), so they are neither drawn nor queried
    until it is expanded. A row spans the whole width (``x`` 0, ``w`` 24) and is one grid row high.
    """

    type: Literal["row"] = "row"
    collapsed: bool = False
    panels: list[DrawnPanel] = Field(default_factory=list, max_length=200)
    repeat: str | None = Field(
        default=None,
        max_length=64,
        examples=["host"],
        description="a variable's name: the row and its panels are drawn once per selected value "
        "of it (every value when none or All is selected), one under another, each copy with "
        "the variable set to its value; null = once",
    )

    @model_validator(mode="after")
    def _row(self) -> RowPanel:
        g = self.grid
        if g.x != 0 or g.w != GRID_COLUMNS or g.h != 1:
            raise ValueError(
                f"row {self.id!r} must span the dashboard (x 0, w {GRID_COLUMNS}, h 1); "
                f"got x {g.x}, w {g.w}, h {g.h}"
            )
        if self.panels and not self.collapsed:
            raise ValueError(
                f"row {self.id!r} is expanded, so its panels must follow it in the dashboard's "
                "panels; only a collapsed row holds panels of its own"
            )
        return self


Panel = Annotated[DrawnPanel | RowPanel, Field(discriminator="type")]


# What a PromQL variable's query may be, as Grafana's Prometheus data source has them.
PROMQL_VARIABLE_FUNCTIONS = ("label_values", "label_names", "metrics", "query_result")
_PROMQL_VARIABLE = re.compile(
    r"^\s*(" + "|".join(PROMQL_VARIABLE_FUNCTIONS) + r")\s*\(.*\)\s*$", re.S
)


class Variable(_Strict):
    """A dashboard variable, referred to as ``$name`` in panel queries.

    ``query``: values come from a DQL metadata query such as
    ``show_tag_value(from=['cpu'], keyin=['host'])`` (the ``value`` column), or with
    ``language`` promql from ``label_values(metric, label)``, ``label_values(label)``,
    ``label_names()``, ``metrics(regex)`` or ``query_result(expr)``;
    ``custom``: the fixed ``options``; ``constant``: ``default`` only.
    """

    name: str = Field(examples=["host"])
    label: str = Field(default="", max_length=100)
    type: Literal["query", "custom", "constant"]
    language: QueryLanguage = Field(default="dql", description="the language of ``query``")
    query: str | None = Field(default=None, max_length=65536)
    regex: str | None = Field(
        default=None,
        max_length=1000,
        examples=['/.*instance="([^"]+)".*/'],
        description="keeps the values this regular expression matches (`/…/` or bare); "
        "with a capture group, its text is the value",
    )
    options: list[str] = Field(default_factory=list, max_length=1000)
    default: list[str] = Field(default_factory=list, max_length=1000)
    multi: bool = False
    include_all: bool = False

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not _VARIABLE_NAME.match(value):
            raise ValueError("variable name must match [A-Za-z_][A-Za-z0-9_]{0,63}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Variable:
        if self.type == "query" and not self.query:
            raise ValueError(f"variable {self.name!r} of type query needs a query")
        if (
            self.type == "query"
            and self.language == "promql"
            and not _PROMQL_VARIABLE.match(self.query or "")
        ):
            raise ValueError(
                f"variable {self.name!r}: a PromQL variable's query is label_values(…), "
                "label_names(), metrics(…) or query_result(…)"
            )
        if self.type == "custom" and not self.options:
            raise ValueError(f"variable {self.name!r} of type custom needs options")
        return self


class TimeRange(_Strict):
    from_: str = Field(default="now-1h", alias="from", max_length=64, examples=["now-6h"])
    to: str = Field(default="now", max_length=64)

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class DashboardSpec(_Strict):
    schema_version: Literal[1] = 1
    time: TimeRange = Field(default_factory=TimeRange)
    refresh: str | None = Field(
        default=None, pattern=r"^[0-9]+(s|m|h)$", description="auto-refresh, e.g. '30s'; null = off"
    )
    time_shift: str | None = Field(
        default=None,
        max_length=32,
        examples=["1d"],
        description="compare with the past by default: each series is also drawn as it was this "
        "long ago, e.g. '1d', '1w', '36h' (at most 365d); null = off. The URL's `compare` "
        "parameter overrides it (`compare=off` switches it off).",
    )
    timezone: str | None = Field(
        default=None,
        max_length=64,
        examples=["UTC", "Europe/Paris"],
        description="the IANA time zone the dashboard's times are read and shown in; "
        "null = each viewer's browser",
    )
    variables: list[Variable] = Field(default_factory=list, max_length=50)
    panels: list[Panel] = Field(default_factory=list, max_length=200)

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"timezone must be an IANA time zone such as UTC or Europe/Paris (got {value!r})"
            ) from None
        return value

    @field_validator("time_shift")
    @classmethod
    def _time_shift(cls, value: str | None) -> str | None:
        if value is None:
            return None
        ms = duration_ms(value)
        if ms is None:
            raise ValueError(f"time_shift must be a duration such as 1d, 12h or 1w (got {value!r})")
        if ms <= 0 or ms > MAX_TIME_SHIFT_MS:
            raise ValueError(
                f"time_shift must be longer than zero and at most a year (365d) (got {value!r})"
            )
        return value

    def every_panel(self) -> list[_PanelCommon]:
        """The panels, with those of collapsed rows after their row."""
        out: list[_PanelCommon] = []
        for p in self.panels:
            out.append(p)
            if isinstance(p, RowPanel):
                out.extend(p.panels)
        return out

    @model_validator(mode="after")
    def _unique(self) -> DashboardSpec:
        panels = self.every_panel()
        if len(panels) > MAX_PANELS:
            raise ValueError(
                f"a dashboard holds at most {MAX_PANELS} panels, rows and the panels of "
                f"collapsed rows included (got {len(panels)})"
            )
        variables = {v.name for v in self.variables}
        for p in panels:
            repeat = p.repeat if isinstance(p, _Repeatable | RowPanel) else None
            if repeat is not None and repeat not in variables:
                kind = "row" if isinstance(p, RowPanel) else "panel"
                raise ValueError(
                    f"{kind} {p.id!r} repeats for ${repeat}, "
                    "which is not a variable of this dashboard"
                )
        for kind, names in (
            ("panel id", [p.id for p in panels]),
            ("variable name", [v.name for v in self.variables]),
        ):
            seen: set[str] = set()
            for name in names:
                if name in seen:
                    raise ValueError(f"duplicate {kind} {name!r}")
                seen.add(name)
        return self


Tags = Annotated[list[Annotated[str, Field(min_length=1, max_length=64)]], Field(max_length=20)]


class DashboardCreate(BaseModel):
    title: Name200 = Field(examples=["Host overview"])
    description: str = Field(default="", max_length=2000)
    tags: Tags = Field(default_factory=list)
    spec: DashboardSpec = Field(default_factory=DashboardSpec)


class DashboardUpdate(BaseModel):
    title: Name200 | None = None
    description: str | None = Field(default=None, max_length=2000)
    tags: Tags | None = None
    spec: DashboardSpec | None = None
    message: str = Field(default="", max_length=500, description="Version note")
    base_version: int | None = Field(
        default=None,
        ge=1,
        description="If set and the dashboard moved on since, 409 (no lost updates)",
    )


class DashboardSummary(BaseModel):
    id: uuid.UUID
    workspace_id: uuid.UUID
    title: str
    description: str
    tags: list[str]
    version: int
    created_at: datetime
    updated_at: datetime


class DashboardPublic(DashboardSummary):
    spec: DashboardSpec
    created_by: uuid.UUID | None
    updated_by: uuid.UUID | None


class DashboardsPublic(BaseModel):
    data: list[DashboardSummary]
    count: int


class DashboardVersionPublic(BaseModel):
    version: int
    title: str
    message: str
    created_by: uuid.UUID | None
    created_at: datetime


class DashboardVersionDetail(DashboardVersionPublic):
    description: str
    tags: list[str]
    spec: DashboardSpec


class DashboardVersionsPublic(BaseModel):
    data: list[DashboardVersionPublic]
    count: int


class DashboardExport(BaseModel):
    """Portable form of a dashboard: what export returns and import accepts."""

    format: Literal["vigil.dashboard"] = "vigil.dashboard"
    title: Name200
    description: str = Field(default="", max_length=2000)
    tags: Tags = Field(default_factory=list)
    spec: DashboardSpec


UnmappedKind = Literal["dashboard", "panel", "query", "variable"]


class GrafanaUnmapped(BaseModel):
    """Something of a Grafana dashboard the imported one does not have, and why."""

    kind: UnmappedKind = Field(description="what it belonged to")
    title: str = Field(
        description="the Grafana panel's or variable's title (the dashboard's for dashboard "
        "settings)",
        examples=["CPU Busy"],
    )
    grafana_id: int | None = Field(default=None, description="the Grafana panel's id")
    reason: str = Field(examples=["panel type 'piechart' has no Vigil equivalent"])


class GrafanaImportResult(BaseModel):
    """The dashboard made from a Grafana dashboard, and what it could not carry over."""

    dashboard: DashboardPublic
    unmapped: list[GrafanaUnmapped]
