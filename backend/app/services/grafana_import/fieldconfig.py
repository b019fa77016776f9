"""A panel's display settings: units, colours, thresholds, reducers and legends."""

from __future__ import annotations

import re
from typing import Any

from app.services.grafana_import.context import _Context
from app.services.grafana_import.values import _dict, _list, _num, _str

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
