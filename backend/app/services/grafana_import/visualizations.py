"""What each Grafana panel type becomes: the type-specific part of a Vigil panel."""

from __future__ import annotations

from typing import Any

from app.services.grafana_import.context import _Context
from app.services.grafana_import.fieldconfig import (
    _legend,
    _old_thresholds,
    _reduce,
    _thresholds,
    _unit,
)
from app.services.grafana_import.targets import _queries
from app.services.grafana_import.values import _dict, _int, _list, _num, _str

_HEATMAP_SCHEMES = ("blues", "greens", "oranges", "reds", "spectral", "viridis")


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
