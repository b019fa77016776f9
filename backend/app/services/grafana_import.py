"""Grafana dashboards into Vigil dashboards: everything that maps, and a list of what does not.

``convert(document)`` reads the JSON that Grafana 9–11 exports (the dashboard itself, with or
without the ``__inputs`` / ``__requires`` / ``__elements`` wrapper of *Export for sharing
externally*, or the ``{"dashboard": …}`` envelope of Grafana's HTTP API) and returns a
``DashboardCreate`` plus the list of what could not be carried over, each with the Grafana
panel's (or variable's) title and the reason. Nothing is dropped without an entry in that
list, except display details Vigil has no counterpart for (colour modes, text sizes, tooltip
modes, axis placement).

What maps:

- panels ``timeseries``, ``graph`` (old), ``stat``, ``singlestat`` (old), ``gauge``,
  ``bargauge`` (a top list), ``table``, ``text``, ``heatmap``; rows, collapsed ones with
  their panels; library panels whose model the export carries; ``repeat`` of panels and rows;
- Prometheus targets: ``expr`` (``[[var]]`` and ``${var:regex}`` rewritten to ``${var}``),
  ``legendFormat``, ``interval`` (the query's minimum step), ``hide``;
- units (``UNITS``), decimals, thresholds (Grafana's palette names and ``rgba()`` to hex),
  min/max of gauges, legends, stacking, fill, line width, reducers, ``gridPos``;
- variables ``query`` (``label_values()``, ``label_names()``, ``metrics()``,
  ``query_result()``, with ``regex``), ``custom``, ``constant``, ``interval`` (a custom
  list), ``textbox`` (a constant); the time range, auto refresh, time zone, tags.

The converter is pure: it reads the document and never the database, so it is tested with
plain dictionaries (``tests/services/test_grafana_import.py``) and the fixtures of
``tests/fixtures/grafana/``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import TypeAdapter, ValidationError

from app.core.errors import InvalidValue
from app.schemas.dashboard import (
    GRID_COLUMNS,
    MAX_PANELS,
    PROMQL_VARIABLE_FUNCTIONS,
    DashboardCreate,
    DashboardSpec,
    DrawnPanel,
    GrafanaUnmapped,
    UnmappedKind,
    Variable,
    duration_ms,
)


@dataclass
class GrafanaConversion:
    dashboard: DashboardCreate
    unmapped: list[GrafanaUnmapped]


# --- units ------------------------------------------------------------------------------------

# Grafana unit id -> Vigil unit (`components/charts/units.ts`): the same scale.
UNITS: dict[str, str] = {
    "": "none",
    "none": "none",
    "short": "short",
    "percent": "percent",
    "percentunit": "percentunit",
    "bytes": "bytes",
    "decbytes": "bytes",
    "Bps": "bytes/s",
    "binBps": "bytes/s",
    "bps": "bits/s",
    "binbps": "bits/s",
    "s": "s",
    "dtdurations": "s",
    "ms": "ms",
    "dtdurationms": "ms",
    "µs": "us",
    "us": "us",
    "ns": "ns",
    "ops": "ops/s",
    "iops": "ops/s",
    "rps": "ops/s",
    "wps": "ops/s",
    "reqps": "req/s",
    # plain numbers with a suffix: Vigil writes any other unit after the number
    "m": "min",
    "h": "h",
    "d": "d",
    "opm": "ops/min",
    "reqpm": "req/min",
    "rpm": "reads/min",
    "wpm": "writes/min",
    "pps": "packets/s",
    "cps": "counts/s",
    "hertz": "Hz",
    "celsius": "°C",
    "fahrenheit": "°F",
    "kelvin": "K",
    "humidity": "%H",
    "watt": "W",
    "kwatt": "kW",
    "volt": "V",
    "amp": "A",
    "dB": "dB",
    "degree": "°",
    "rotrpm": "rpm",
    "bits": "bits",
    "decbits": "bits",
}

# Grafana's named palette (its theme's visualisation colours) as hex.
_SHADES = ("super-light-", "light-", "", "semi-dark-", "dark-")
_PALETTE: dict[str, tuple[str, ...]] = {
    "red": ("#FFA6B0", "#FF7383", "#F2495C", "#E02F44", "#C4162A"),
    "orange": ("#FFCB7D", "#FFB357", "#FF9830", "#FF780A", "#FA6400"),
    "yellow": ("#FFF899", "#FFEE52", "#FADE2A", "#F2CC0C", "#E0B400"),
    "green": ("#C8F2C2", "#96D98D", "#73BF69", "#56A64B", "#37872D"),
    "blue": ("#C0D8FF", "#8AB8FF", "#5794F2", "#3274D9", "#1F60C4"),
    "purple": ("#DEB6F2", "#CA95E5", "#B877D9", "#A352CC", "#8F3BB8"),
}
COLORS: dict[str, str] = {
    f"{shade}{hue}": hexes[i] for hue, hexes in _PALETTE.items() for i, shade in enumerate(_SHADES)
}
_HEX = re.compile(r"^#[0-9a-fA-F]{3,8}$")
_RGB = re.compile(
    r"^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*([0-9.]+)\s*)?\)$", re.I
)

# Grafana reducers -> Vigil's
_REDUCERS = {
    "lastNotNull": "last",
    "last": "last",
    "current": "last",
    "mean": "avg",
    "avg": "avg",
    "max": "max",
    "min": "min",
    "sum": "sum",
    "total": "sum",
    "count": "count",
    "first": "first",
    "firstNotNull": "first",
}
_LEGEND_VALUES = {"lastNotNull": "last", "last": "last", "current": "last", "mean": "avg"}
_LEGEND_VALUES.update({k: k for k in ("min", "max", "avg", "sum")})
_LEGEND_VALUES["total"] = "sum"
_HEATMAP_SCHEMES = ("blues", "greens", "oranges", "reds", "spectral", "viridis")

_VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_OLD_VARIABLE = re.compile(r"\[\[([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z]+))?\]\]")
_FORMATTED_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):([A-Za-z]+)\}")
_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
# formats whose text Vigil's `$var` gives too (one value as is, several as a regex alternation)
_SAME_FORMATS = {"regex", "pipe", "raw", "text"}
_REF_ID = re.compile(r"[^A-Za-z0-9_]")
_REFRESH = re.compile(r"^[0-9]+(s|m|h)$")

_PANEL_ADAPTER: TypeAdapter[Any] = TypeAdapter(DrawnPanel)
MAX_QUERIES = 10
MAX_VARIABLES = 50


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _num(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if value == value and abs(value) != float("inf") else None


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def color(value: object) -> str | None:
    """A Grafana colour as Vigil takes it (#hex), or None when it has no colour of its own."""
    text = _str(value).strip()
    if _HEX.match(text):
        return text
    if text.lower() in COLORS:
        return COLORS[text.lower()]
    m = _RGB.match(text)
    if m:
        r, g, b = (min(int(m.group(i)), 255) for i in (1, 2, 3))
        out = f"#{r:02x}{g:02x}{b:02x}"
        if m.group(4) is not None:
            try:
                alpha = min(max(float(m.group(4)), 0.0), 1.0)
            except ValueError:
                return out
            if alpha < 1:
                out += f"{round(alpha * 255):02x}"
        return out
    return None


@dataclass
class _Context:
    title: str
    inputs: dict[str, str]
    elements: dict[str, dict[str, Any]]
    unmapped: list[GrafanaUnmapped] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    variables: set[str] = field(default_factory=set)
    dropped_variables: set[str] = field(default_factory=set)
    datasource_variables: dict[str, str] = field(default_factory=dict)
    panels: int = 0

    def note(
        self, kind: UnmappedKind, title: str, reason: str, grafana_id: int | None = None
    ) -> None:
        self.unmapped.append(
            GrafanaUnmapped(kind=kind, title=title, grafana_id=grafana_id, reason=reason)
        )

    def panel_id(self, grafana_id: int | None) -> str:
        base = f"p{grafana_id}" if grafana_id is not None and grafana_id >= 0 else "panel"
        candidate, n = base, 2
        while candidate in self.ids:
            candidate, n = f"{base}-{n}", n + 1
        self.ids.add(candidate)
        return candidate


# --- data sources -----------------------------------------------------------------------------


def _datasource_type(ref: object, ctx: _Context, inherited: str) -> str:
    """The plugin type a data source reference points at: ``prometheus``, ``loki``, ``mixed``…

    References are objects (``{"type": "prometheus", "uid": "${DS_PROMETHEUS}"}``, Grafana
    8.3+) or strings (a name, ``${DS_…}``, ``-- Mixed --``); null means the panel's (or the
    dashboard's default, taken to be Prometheus).
    """
    if ref is None or ref == "":
        return inherited
    if isinstance(ref, dict):
        kind = _str(ref.get("type"))
        uid = _str(ref.get("uid"))
        if uid in ("-- Mixed --", "-- Dashboard --", "-- Grafana --"):
            return uid.strip("- ").lower()
        if kind == "datasource" and uid == "grafana":
            return "grafana"
        if kind:
            return kind
        return _datasource_type(uid or None, ctx, inherited)
    if isinstance(ref, str):
        if ref in ("-- Mixed --", "-- Dashboard --", "-- Grafana --"):
            return ref.strip("- ").lower()
        m = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", ref)
        if m:
            name = m.group(1)
            return ctx.inputs.get(name) or ctx.datasource_variables.get(name) or "prometheus"
        # a data source by name: its type is not in the document; Prometheus unless the
        # export says it needs exactly one data source plugin
        return ctx.inputs.get("") or "prometheus"
    return inherited


# --- queries ----------------------------------------------------------------------------------


def rewrite_variables(expr: str) -> tuple[str, list[str]]:
    """``[[var]]`` and ``${var:format}`` as Vigil writes them (``${var}``), and the formats
    whose text differs from Vigil's (``csv``, ``json`` …)."""
    formats: list[str] = []

    def plain(m: re.Match[str]) -> str:
        fmt = m.group(2)
        if fmt and fmt not in _SAME_FORMATS:
            formats.append(f"${{{m.group(1)}:{fmt}}}")
        return "${" + m.group(1) + "}"

    expr = _OLD_VARIABLE.sub(plain, expr)
    return _FORMATTED_VARIABLE.sub(plain, expr), formats


def _queries(
    panel: dict[str, Any], ctx: _Context, title: str, gid: int | None
) -> list[dict[str, Any]]:
    panel_ds = _datasource_type(panel.get("datasource"), ctx, "prometheus")
    panel_step = _str(panel.get("interval")).strip()
    out: list[dict[str, Any]] = []
    refs: set[str] = set()
    for i, raw in enumerate(_list(panel.get("targets"))):
        target = _dict(raw)
        ref = _REF_ID.sub("_", _str(target.get("refId")))[:16] or chr(65 + i % 26)
        while ref in refs:
            ref = (ref + "_")[-16:] if len(ref) < 16 else f"Q{i}"
        ds = _datasource_type(target.get("datasource"), ctx, panel_ds)
        if ds == "mixed":
            ds = "prometheus"
        expr = target.get("expr")
        if ds != "prometheus":
            what = ds if ds not in ("grafana", "dashboard") else f"-- {ds.title()} --"
            ctx.note(
                "query", title, f"query {ref} reads the {what} data source, not Prometheus", gid
            )
            continue
        if not isinstance(expr, str):
            ctx.note("query", title, f"query {ref} has no PromQL expression (expr)", gid)
            continue
        if not expr.strip():
            continue  # an empty query draws nothing in Grafana either
        if len(out) >= MAX_QUERIES:
            ctx.note(
                "query", title, f"query {ref}: a panel holds at most {MAX_QUERIES} queries", gid
            )
            continue
        expr, formats = rewrite_variables(expr)
        for f in formats:
            ctx.note(
                "query",
                title,
                f"query {ref}: {f} is filled in as ${{…}} (a regex of the values)",
                gid,
            )
        for name in sorted(_referenced(expr) & ctx.dropped_variables):
            ctx.note(
                "query", title, f"query {ref} uses ${name}, a variable that was not imported", gid
            )
        query: dict[str, Any] = {"ref_id": ref, "language": "promql", "query": expr}
        refs.add(ref)
        legend = _str(target.get("legendFormat")).strip()
        if legend and legend != "__auto":
            query["legend_format"] = _clip(legend, 200)
        if target.get("hide") is True:
            query["hidden"] = True
        step = _str(target.get("interval")).strip() or panel_step
        if step:
            ms = duration_ms(step.lstrip(">"))
            if ms is not None and ms >= 1000:
                query["min_step"] = step.lstrip(">")
            else:
                ctx.note(
                    "query",
                    title,
                    f"query {ref}: min interval {step!r} is not a duration of 1s or more",
                    gid,
                )
        out.append(query)
    return out


def _referenced(text: str) -> set[str]:
    return {m.group(1) or m.group(2) for m in _REFERENCE.finditer(text)}


# --- panels -----------------------------------------------------------------------------------


def _grid(panel: dict[str, Any], bottom: int) -> dict[str, int]:
    pos = _dict(panel.get("gridPos"))
    w = min(max(_int(pos.get("w")) or 12, 1), GRID_COLUMNS)
    x = min(max(_int(pos.get("x")) or 0, 0), GRID_COLUMNS - 1)
    w = min(w, GRID_COLUMNS - x)
    y = _int(pos.get("y"))
    y = bottom if y is None else min(max(y, 0), 10_000)
    h = min(max(_int(pos.get("h")) or 8, 1), 100)
    return {"x": x, "y": y, "w": w, "h": h}


def _unit(unit: object, ctx: _Context, title: str, gid: int | None) -> str:
    text = _str(unit)
    if text in UNITS:
        return UNITS[text]
    if text.startswith("suffix:") and 0 < len(text) - 7 <= 32:
        return text[7:]
    ctx.note(
        "panel",
        title,
        f"unit {text!r} has no Vigil equivalent: values are shown as plain numbers",
        gid,
    )
    return "none"


def _thresholds(
    defaults: dict[str, Any], ctx: _Context, title: str, gid: int | None
) -> list[dict[str, Any]]:
    spec = _dict(defaults.get("thresholds"))
    if spec.get("mode") == "percentage":
        ctx.note(
            "panel", title, "percentage thresholds are not supported (only absolute values)", gid
        )
        return []
    out: list[dict[str, Any]] = []
    for step in _list(spec.get("steps")):
        step = _dict(step)
        value = _num(step.get("value"))
        if value is None:
            continue  # the base colour: the series' own colour in Vigil
        c = color(step.get("color"))
        if c is None:
            ctx.note(
                "panel",
                title,
                f"threshold {value:g}: colour {step.get('color')!r} is not supported",
                gid,
            )
            continue
        out.append({"value": value, "color": c})
    return out[:20]


def _old_thresholds(
    panel: dict[str, Any], ctx: _Context, title: str, gid: int | None
) -> list[dict[str, Any]]:
    """The ``graph`` panel's thresholds (``[{"value", "colorMode", "op"}]``) and the
    ``singlestat`` panel's (``"80,90"`` with ``colors``)."""
    raw = panel.get("thresholds")
    out: list[dict[str, Any]] = []
    if isinstance(raw, str):
        colors = [color(c) for c in _list(panel.get("colors"))]
        for i, part in enumerate(p for p in raw.split(",") if p.strip()):
            try:
                value = float(part)
            except ValueError:
                ctx.note("panel", title, f"threshold {part.strip()!r} is not a number", gid)
                continue
            c = colors[i + 1] if i + 1 < len(colors) else None
            out.append({"value": value, "color": c or ("#FF9830" if i == 0 else "#F2495C")})
    for t in _list(raw):
        t = _dict(t)
        at = _num(t.get("value"))
        if at is None:
            continue
        value = at
        mode = _str(t.get("colorMode"))
        c = {"critical": "#F2495C", "warning": "#FF9830", "ok": "#73BF69"}.get(mode) or color(
            t.get("lineColor") or t.get("fillColor")
        )
        if _str(t.get("op")) == "lt":
            ctx.note(
                "panel",
                title,
                f"threshold < {value:g}: only thresholds above a value are drawn",
                gid,
            )
        out.append({"value": value, "color": c or "#F2495C"})
    return out[:20]


def _reduce(calcs: list[str], ctx: _Context, title: str, gid: int | None) -> str:
    if not calcs:
        return "last"
    first = calcs[0]
    if len(calcs) > 1:
        ctx.note("panel", title, f"only the first calculation ({first}) is shown", gid)
    if first in _REDUCERS:
        return _REDUCERS[first]
    ctx.note(
        "panel", title, f"calculation {first!r} is not available: the last value is shown", gid
    )
    return "last"


def _legend(options: dict[str, Any], panel: dict[str, Any]) -> dict[str, Any]:
    legend = _dict(options.get("legend"))
    if legend:
        show = legend.get("showLegend") is not False and legend.get("displayMode") != "hidden"
        calcs = [_LEGEND_VALUES[c] for c in _list(legend.get("calcs")) if c in _LEGEND_VALUES]
        position = "right" if legend.get("placement") == "right" else "bottom"
    else:  # the old graph panel
        old = _dict(panel.get("legend"))
        show = old.get("show") is not False
        position = "right" if old.get("rightSide") is True else "bottom"
        calcs = [
            _LEGEND_VALUES[k]
            for k in ("current", "min", "max", "avg", "total")
            if old.get(k) is True and old.get("values") is True
        ]
    return {"show": show, "position": position, "values": list(dict.fromkeys(calcs))}


def _common_notes(panel: dict[str, Any], ctx: _Context, title: str, gid: int | None) -> None:
    config = _dict(panel.get("fieldConfig"))
    defaults = _dict(config.get("defaults"))
    overrides = _list(config.get("overrides"))
    if overrides:
        ctx.note("panel", title, f"{len(overrides)} field override(s) are not supported", gid)
    transformations = _list(panel.get("transformations"))
    if transformations:
        names = ", ".join(sorted({_str(_dict(t).get("id")) or "?" for t in transformations}))
        ctx.note("panel", title, f"transformations are not supported ({names})", gid)
    if (
        _list(defaults.get("mappings"))
        or _list(panel.get("valueMaps"))
        or _list(panel.get("mappings"))
    ):
        ctx.note(
            "panel", title, "value mappings are not supported: values are shown as numbers", gid
        )
    if _list(panel.get("links")) or _list(defaults.get("links")):
        ctx.note("panel", title, "panel links are not supported", gid)
    if _str(panel.get("timeFrom")) or _str(panel.get("timeShift")):
        what = " and ".join(
            f"{k} {panel[k]!r}" for k in ("timeFrom", "timeShift") if _str(panel.get(k))
        )
        ctx.note("panel", title, f"a panel's own time range is not supported ({what})", gid)
    if _list(panel.get("seriesOverrides")):
        ctx.note("panel", title, "series overrides are not supported", gid)
    if panel.get("alert"):
        ctx.note("panel", title, "legacy alert rules are not imported: create a monitor", gid)


def _query_panel(
    kind: str, panel: dict[str, Any], ctx: _Context, title: str, gid: int | None
) -> dict[str, Any] | None:
    queries = _queries(panel, ctx, title, gid)
    if not queries:
        ctx.note("panel", title, "no Prometheus query to draw", gid)
        return None
    config = _dict(panel.get("fieldConfig"))
    defaults = _dict(config.get("defaults"))
    options = _dict(panel.get("options"))
    custom = _dict(defaults.get("custom"))
    out: dict[str, Any] = {"queries": queries}
    _common_notes(panel, ctx, title, gid)
    decimals = _int(defaults.get("decimals"))
    if decimals is None:
        decimals = _int(panel.get("decimals"))
    if decimals is not None:
        out["decimals"] = min(max(decimals, 0), 10)
    unit: object = defaults.get("unit")
    thresholds = _thresholds(defaults, ctx, title, gid)
    calcs = [
        c for c in _list(_dict(options.get("reduceOptions")).get("calcs")) if isinstance(c, str)
    ]

    if kind == "graph":
        yaxes = [_dict(a) for a in _list(panel.get("yaxes"))]
        unit = yaxes[0].get("format") if yaxes else None
        if yaxes and decimals is None and _int(yaxes[0].get("decimals")) is not None:
            out["decimals"] = min(max(_int(yaxes[0].get("decimals")) or 0, 0), 10)
        thresholds = _old_thresholds(panel, ctx, title, gid)
        if panel.get("bars") is True:
            out.update(type="bar", stack=panel.get("stack") is True)
        elif (_num(panel.get("fill")) or 0) > 0 and panel.get("lines") is not False:
            out.update(
                type="area",
                stack=panel.get("stack") is True,
                fill_opacity=min((_num(panel.get("fill")) or 1) / 10, 1),
            )
        else:
            out.update(type="timeseries", stack=panel.get("stack") is True)
            out["line_width"] = min(max(_int(panel.get("linewidth")) or 1, 0), 10)
            out["show_points"] = panel.get("points") is True
        out["legend"] = _legend({}, panel)
    elif kind == "timeseries":
        stacking = _str(_dict(custom.get("stacking")).get("mode"))
        if stacking == "percent":
            ctx.note("panel", title, "100% stacking is drawn as normal stacking", gid)
        stack = stacking in ("normal", "percent")
        fill = _num(custom.get("fillOpacity")) or 0
        if custom.get("drawStyle") == "bars":
            out.update(type="bar", stack=stack)
        elif fill > 0:
            out.update(type="area", stack=stack, fill_opacity=min(fill / 100, 1))
        else:
            out.update(type="timeseries", stack=stack)
            out["line_width"] = min(max(_int(custom.get("lineWidth")) or 1, 0), 10)
            out["show_points"] = custom.get("showPoints") == "always"
        out["legend"] = _legend(options, panel)
    elif kind == "stat":
        out.update(type="stat", reduce=_reduce(calcs, ctx, title, gid))
        out["sparkline"] = options.get("graphMode", "area") != "none"
    elif kind == "singlestat":
        value_name = _str(panel.get("valueName")) or "avg"
        unit = panel.get("format")
        thresholds = _old_thresholds(panel, ctx, title, gid)
        reduce = _reduce([value_name], ctx, title, gid)
        gauge = _dict(panel.get("gauge"))
        if gauge.get("show") is True:
            out.update(type="gauge", reduce=reduce)
            lo, hi = _num(gauge.get("minValue")), _num(gauge.get("maxValue"))
            if lo is not None and hi is not None and lo < hi:
                out.update(min=lo, max=hi)
        else:
            out.update(
                type="stat",
                reduce=reduce,
                sparkline=_dict(panel.get("sparkline")).get("show") is True,
            )
        if _str(panel.get("prefix")) or _str(panel.get("postfix")):
            ctx.note("panel", title, "the value's prefix and postfix are not shown", gid)
    elif kind == "gauge":
        out.update(type="gauge", reduce=_reduce(calcs, ctx, title, gid))
        lo, hi = _num(defaults.get("min")), _num(defaults.get("max"))
        if lo is not None and (hi is None or lo < hi):
            out["min"] = lo
        if hi is not None and (lo is None or lo < hi):
            out["max"] = hi
    elif kind == "bargauge":
        out.update(type="toplist", reduce=_reduce(calcs, ctx, title, gid), limit=100, order="desc")
    elif kind == "table":
        targets = [_dict(t) for t in _list(panel.get("targets"))]
        one_row = all(t.get("instant") is True or t.get("format") == "table" for t in targets)
        out.update(type="table", reduce="last" if one_row else None)
    elif kind == "heatmap":
        scheme = _str(_dict(options.get("color")).get("scheme")) or _str(
            _dict(panel.get("color")).get("colorScheme")
        )
        found = next((s for s in _HEATMAP_SCHEMES if s in scheme.lower()), "viridis")
        out.update(type="heatmap", color_scheme=found)
    out["unit"] = _unit(unit, ctx, title, gid)
    # Thresholds Grafana does not show are left out: a time series draws them only with a
    # threshold style, a stat colours by them unless its colour mode is none.
    hidden = (
        out["type"] == "heatmap"
        or (
            kind == "timeseries"
            and _dict(custom.get("thresholdsStyle")).get("mode", "off") == "off"
        )
        or (kind == "stat" and options.get("colorMode") == "none")
    )
    if thresholds and not hidden:
        out["thresholds"] = thresholds
    return out


def _text_panel(panel: dict[str, Any]) -> dict[str, Any]:
    options = _dict(panel.get("options"))
    content = _str(options.get("content")) or _str(panel.get("content"))
    mode = _str(options.get("mode")) or _str(panel.get("mode"))
    if mode == "code":
        language = _str(_dict(options.get("code")).get("language"))
        content = f"```{language}\n{content}\n```"
    return {"type": "text", "content": content}


_DRAWN = {"timeseries", "graph", "stat", "singlestat", "gauge", "bargauge", "table", "heatmap"}


def _panel(raw: dict[str, Any], ctx: _Context, bottom: int) -> dict[str, Any] | None:
    """One Grafana panel (not a row) as a Vigil panel, or None (noted) when it cannot be."""
    library = _dict(raw.get("libraryPanel"))
    gid = _int(raw.get("id"))
    if library and not raw.get("type"):
        model = _dict(_dict(ctx.elements.get(_str(library.get("uid")))).get("model"))
        if not model:
            name = _str(library.get("name")) or _str(library.get("uid"))
            ctx.note(
                "panel",
                _str(raw.get("title")) or name,
                f"library panel {name!r} is not in the export (export it for sharing externally)",
                gid,
            )
            return None
        raw = {
            **model,
            "gridPos": raw.get("gridPos", model.get("gridPos")),
            "id": raw.get("id", model.get("id")),
        }
    title = _str(raw.get("title"))
    kind = _str(raw.get("type"))
    shown = title or f"{kind or 'untitled'} panel"
    if kind in _DRAWN:
        body = _query_panel(kind, raw, ctx, shown, gid)
    elif kind == "text":
        body = _text_panel(raw)
    else:
        ctx.note(
            "panel",
            shown,
            f"panel type {kind!r} has no Vigil equivalent" if kind else "the panel has no type",
            gid,
        )
        return None
    if body is None:
        return None
    panel: dict[str, Any] = {
        **body,
        "title": _clip(title, 200),
        "description": _clip(_str(raw.get("description")), 2000),
        "grid": _grid(raw, bottom),
    }
    _repeat(raw, panel, ctx, shown, gid)
    try:
        validated = _PANEL_ADAPTER.validate_python({**panel, "id": "probe"})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        ctx.note("panel", shown, f"cannot be drawn in Vigil: {where}: {first['msg']}", gid)
        return None
    del validated
    panel["id"] = ctx.panel_id(gid)
    ctx.panels += 1
    return panel


def _repeat(
    raw: dict[str, Any], panel: dict[str, Any], ctx: _Context, title: str, gid: int | None
) -> None:
    name = _str(raw.get("repeat"))
    if not name:
        return
    if name not in ctx.variables:
        ctx.note(
            "panel", title, f"repeat for ${name} is left out: that variable was not imported", gid
        )
        return
    panel["repeat"] = name
    if panel.get("type") == "row":
        return
    panel["repeat_direction"] = "v" if raw.get("repeatDirection") == "v" else "h"
    per_row = _int(raw.get("maxPerRow"))
    if per_row is not None:
        panel["max_per_row"] = min(max(per_row, 1), GRID_COLUMNS)


def _panels(raw_panels: list[Any], ctx: _Context) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    bottom = 0

    def add(raw: dict[str, Any], into: list[dict[str, Any]]) -> None:
        nonlocal bottom
        if ctx.panels >= MAX_PANELS:
            title = _str(raw.get("title")) or "untitled panel"
            ctx.note(
                "panel",
                title,
                f"a dashboard holds at most {MAX_PANELS} panels",
                _int(raw.get("id")),
            )
            return
        panel = _panel(raw, ctx, bottom)
        if panel is not None:
            into.append(panel)
            g = panel["grid"]
            bottom = max(bottom, g["y"] + g["h"])

    for item in raw_panels:
        raw = _dict(item)
        if raw.get("type") != "row":
            add(raw, out)
            continue
        if ctx.panels >= MAX_PANELS:
            add(raw, out)
            continue
        gid = _int(raw.get("id"))
        title = _str(raw.get("title"))
        collapsed = raw.get("collapsed") is True
        pos = _dict(raw.get("gridPos"))
        y = _int(pos.get("y"))
        row: dict[str, Any] = {
            "type": "row",
            "id": ctx.panel_id(gid),
            "title": _clip(title, 200),
            "grid": {
                "x": 0,
                "y": bottom if y is None else min(max(y, 0), 10_000),
                "w": GRID_COLUMNS,
                "h": 1,
            },
            "collapsed": collapsed,
        }
        ctx.panels += 1
        _repeat(raw, row, ctx, title or "row", gid)
        bottom = max(bottom, row["grid"]["y"] + 1)
        out.append(row)
        nested: list[dict[str, Any]] = []
        for child in _list(raw.get("panels")):
            child = _dict(child)
            if child.get("type") == "row":
                ctx.note(
                    "panel",
                    _str(child.get("title")) or "row",
                    "a row inside a row is not supported",
                    _int(child.get("id")),
                )
                continue
            add(child, nested)
        if collapsed:
            row["panels"] = nested
        else:
            out.extend(nested)  # an expanded row's panels follow it
    return out


# --- variables --------------------------------------------------------------------------------


def _current(variable: dict[str, Any]) -> list[str]:
    value = _dict(variable.get("current")).get("value")
    values = value if isinstance(value, list) else [value]
    return [v for v in values if isinstance(v, str) and v not in ("$__all", "")][:1000]


def _custom_options(query: str) -> list[str]:
    """Grafana's custom variable text: comma-separated, ``\\,`` for a comma, ``text : value``."""
    out: list[str] = []
    for part in re.findall(r"(?:\\,|[^,])+", query):
        text = part.replace("\\,", ",").strip()
        if " : " in text:
            text = text.split(" : ", 1)[1].strip()
        if text:
            out.append(text)
    return list(dict.fromkeys(out))[:1000]


def _promql_variable_query(raw: dict[str, Any]) -> str:
    """The classic query text of a Prometheus variable, whatever form Grafana saved it in."""
    query = raw.get("query")
    if isinstance(query, str):
        return query.strip()
    q = _dict(query)
    text = _str(q.get("query")).strip()
    if text:
        return text
    kind = _int(q.get("qryType"))
    metric, label = _str(q.get("metric")), _str(q.get("label"))
    if kind == 0:
        return "label_names()"
    if kind == 1 and label:
        return f"label_values({metric}, {label})" if metric else f"label_values({label})"
    if kind == 2:
        return f"metrics({metric})"
    if kind == 3 and _str(q.get("varQuery")):
        return f"query_result({_str(q.get('varQuery'))})"
    return _str(raw.get("definition")).strip()


def _variable(raw: dict[str, Any], ctx: _Context) -> dict[str, Any] | None:
    name = _str(raw.get("name"))
    kind = _str(raw.get("type"))
    shown = name or "unnamed variable"
    if not _VARIABLE_NAME.match(name):
        ctx.note(
            "variable",
            shown,
            "the name is not a valid Vigil variable name ([A-Za-z_][A-Za-z0-9_]*)",
        )
        return None
    out: dict[str, Any] = {
        "name": name,
        "label": _clip(_str(raw.get("label")), 100),
        "multi": raw.get("multi") is True,
        "include_all": raw.get("includeAll") is True,
        "default": _current(raw),
    }
    if kind == "query":
        ds = _datasource_type(raw.get("datasource"), ctx, "prometheus")
        if ds != "prometheus":
            ctx.note(
                "variable", shown, f"its values come from the {ds} data source, not Prometheus"
            )
            return None
        query, _ = rewrite_variables(_promql_variable_query(raw))
        function = query.split("(", 1)[0].strip()
        if function not in PROMQL_VARIABLE_FUNCTIONS:
            ctx.note(
                "variable",
                shown,
                f"query {_clip(query, 80)!r} is not label_values(), label_names(), metrics() "
                "or query_result()",
            )
            return None
        out.update(type="query", language="promql", query=query)
        regex = _str(raw.get("regex")).strip()
        if len(regex) > 1000:
            ctx.note("variable", shown, "its regex is longer than 1000 characters and was left out")
        elif regex:
            out["regex"] = regex
        all_value = _str(raw.get("allValue"))
        if out["include_all"] and all_value not in ("", ".*", ".+"):
            ctx.note(
                "variable",
                shown,
                f"All value {all_value!r} is not supported: All means every value (.*)",
            )
    elif kind == "custom":
        options = _custom_options(_str(raw.get("query")))
        if not options:
            options = [
                v
                for v in (_dict(o).get("value") for o in _list(raw.get("options")))
                if isinstance(v, str) and v != "$__all"
            ]
        if not options:
            ctx.note("variable", shown, "a custom variable without values")
            return None
        out.update(type="custom", options=options)
    elif kind == "interval":
        options = _custom_options(_str(raw.get("query")))
        if not options:
            ctx.note("variable", shown, "an interval variable without values")
            return None
        if raw.get("auto") is True:
            ctx.note("variable", shown, "the auto interval option is left out")
        out.update(type="custom", options=options, multi=False, include_all=False)
        if not out["default"]:
            out["default"] = options[:1]
    elif kind in ("constant", "textbox"):
        value = _str(raw.get("query"))
        out.update(
            type="constant",
            default=[value] if kind == "constant" or not out["default"] else out["default"],
            multi=False,
            include_all=False,
        )
        if kind == "textbox":
            ctx.note(
                "variable",
                shown,
                "a text box becomes a constant: change its value in the dashboard's settings",
            )
    elif kind == "datasource":
        ctx.datasource_variables[name] = _str(raw.get("query")) or "prometheus"
        ctx.note(
            "variable",
            shown,
            "data source variables are not needed: a Vigil workspace has one data source",
        )
        return None
    else:
        ctx.note(
            "variable",
            shown,
            f"variables of type {kind!r} are not supported" if kind else "the variable has no type",
        )
        return None
    try:
        Variable.model_validate(out)
    except ValidationError as exc:
        ctx.note("variable", shown, f"cannot be used in Vigil: {exc.errors()[0]['msg']}")
        return None
    return out


def _variables(raw_list: list[Any], ctx: _Context) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    # data source variables first: queries and panels refer to them
    for raw in raw_list:
        raw = _dict(raw)
        if raw.get("type") == "datasource" and isinstance(raw.get("name"), str):
            ctx.datasource_variables[raw["name"]] = _str(raw.get("query")) or "prometheus"
    for raw in raw_list:
        raw = _dict(raw)
        name = _str(raw.get("name"))
        if name in ctx.variables:
            ctx.note("variable", name, "a second variable by this name is left out")
            continue
        if len(out) >= MAX_VARIABLES:
            ctx.note(
                "variable",
                name or "unnamed variable",
                f"a dashboard holds at most {MAX_VARIABLES} variables",
            )
            ctx.dropped_variables.add(name)
            continue
        variable = _variable(raw, ctx)
        if variable is None:
            ctx.dropped_variables.add(name)
            continue
        ctx.variables.add(name)
        out.append(variable)
    return out


# --- the dashboard ----------------------------------------------------------------------------


def _time(value: object, fallback: str) -> str:
    text = _str(value).strip()
    if text.startswith("now") and len(text) <= 64:
        return text
    try:
        return str(int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000))
    except ValueError:
        return fallback


def _timezone(value: object, ctx: _Context) -> str | None:
    text = _str(value).strip()
    if text in ("", "browser"):
        return None
    if text.lower() == "utc":
        return "UTC"
    try:
        ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        ctx.note(
            "dashboard", ctx.title, f"time zone {text!r} is unknown: each viewer's own is used"
        )
        return None
    return text


def unwrap(document: dict[str, Any]) -> dict[str, Any]:
    """The dashboard of an export: the document itself, or what its ``dashboard`` holds
    (Grafana's HTTP API answers ``{"dashboard": …, "meta": …}`` and takes the same to import)."""
    inner = document.get("dashboard")
    if isinstance(inner, dict) and "panels" not in document:
        return inner
    return document


def convert(document: dict[str, Any], *, title: str | None = None) -> GrafanaConversion:
    """A Grafana dashboard as a Vigil one, and what could not be carried over.

    Raises ``InvalidValue`` (422) naming the field when the document is not a Grafana
    dashboard. ``title`` replaces the dashboard's own.
    """
    doc = unwrap(document)
    prefix = "body.dashboard" if doc is not document else "body"
    panels = doc.get("panels")
    if not isinstance(panels, list):
        if isinstance(doc.get("rows"), list):
            raise InvalidValue(
                "this is a dashboard of Grafana 4 or older (rows at the top level): open it in "
                "a newer Grafana and export it again",
                field=f"{prefix}.rows",
            )
        raise InvalidValue(
            "not a Grafana dashboard: a list of panels is expected", field=f"{prefix}.panels"
        )
    own_title = _str(doc.get("title")).strip()
    if not (title or own_title):
        raise InvalidValue("a Grafana dashboard has a title", field=f"{prefix}.title")
    templating = _dict(doc.get("templating")).get("list", [])
    if not isinstance(templating, list):
        raise InvalidValue("a list of variables is expected", field=f"{prefix}.templating.list")

    inputs = {
        _str(_dict(i).get("name")): _str(_dict(i).get("pluginId"))
        for i in _list(document.get("__inputs")) + _list(doc.get("__inputs"))
        if _dict(i).get("type") == "datasource"
    }
    plugins = {
        _str(_dict(r).get("id"))
        for r in _list(document.get("__requires")) + _list(doc.get("__requires"))
        if _dict(r).get("type") == "datasource"
    }
    if len(plugins) == 1:
        inputs[""] = next(iter(plugins))  # what a data source named in the document is
    elements = {
        k: _dict(v)
        for k, v in {**_dict(document.get("__elements")), **_dict(doc.get("__elements"))}.items()
    }
    ctx = _Context(title=own_title or title or "", inputs=inputs, elements=elements)

    variables = _variables(templating, ctx)
    vigil_panels = _panels(panels, ctx)

    for a in _list(_dict(doc.get("annotations")).get("list")):
        a = _dict(a)
        if a.get("builtIn") == 1 or a.get("enable") is False:
            continue
        ctx.note(
            "dashboard",
            ctx.title,
            f"annotation {_str(a.get('name')) or '?'!r} is not imported "
            "(alert events are drawn on panels instead)",
        )
    if _list(doc.get("links")):
        ctx.note(
            "dashboard",
            ctx.title,
            f"{len(_list(doc.get('links')))} dashboard link(s) are not imported",
        )

    time = _dict(doc.get("time"))
    refresh = _str(doc.get("refresh")).strip() or None
    if refresh is not None and not _REFRESH.match(refresh):
        ctx.note(
            "dashboard",
            ctx.title,
            f"auto refresh {refresh!r} is not supported (seconds, minutes or hours)",
        )
        refresh = None
    tags = [_clip(t, 64) for t in _list(doc.get("tags")) if isinstance(t, str) and t.strip()][:20]
    spec = {
        "time": {"from": _time(time.get("from"), "now-1h"), "to": _time(time.get("to"), "now")},
        "refresh": refresh,
        "timezone": _timezone(doc.get("timezone"), ctx),
        "variables": variables,
        "panels": vigil_panels,
    }
    try:
        dashboard = DashboardCreate(
            title=_clip(title or own_title, 200),
            description=_clip(_str(doc.get("description")), 2000),
            tags=tags,
            spec=DashboardSpec.model_validate(spec),
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidValue(
            f"cannot be imported: {first['msg']}", field=f"{prefix}.{where}"
        ) from None
    return GrafanaConversion(dashboard=dashboard, unmapped=ctx.unmapped)
