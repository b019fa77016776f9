"""Panels and rows: library panels, ``gridPos``, ``repeat`` and the panel limit."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from app.schemas.dashboard import GRID_COLUMNS, MAX_PANELS, DrawnPanel
from app.services.grafana_import.context import _Context
from app.services.grafana_import.values import _clip, _dict, _int, _list, _str
from app.services.grafana_import.visualizations import _DRAWN, _query_panel, _text_panel

_PANEL_ADAPTER: TypeAdapter[Any] = TypeAdapter(DrawnPanel)


def _grid(panel: dict[str, Any], bottom: int) -> dict[str, int]:
    pos = _dict(panel.get("gridPos"))
    w = min(max(_int(pos.get("w")) or 12, 1), GRID_COLUMNS)
    x = min(max(_int(pos.get("x")) or 0, 0), GRID_COLUMNS - 1)
    w = min(w, GRID_COLUMNS - x)
    y = _int(pos.get("y"))
    y = bottom if y is None else min(max(y, 0), 10_000)
    h = min(max(_int(pos.get("h")) or 8, 1), 100)
    return {"x": x, "y": y, "w": w, "h": h}


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
