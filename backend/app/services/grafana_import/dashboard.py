"""The dashboard: the export's wrappers, the time range, refresh and time zone, and ``convert``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import ValidationError

from app.core.errors import InvalidValue
from app.schemas.dashboard import DashboardCreate, DashboardSpec, GrafanaUnmapped
from app.services.grafana_import.context import _Context
from app.services.grafana_import.panels import _panels
from app.services.grafana_import.values import _clip, _dict, _list, _str
from app.services.grafana_import.variables import _variables

_REFRESH = re.compile(r"^[0-9]+(s|m|h)$")


@dataclass
class GrafanaConversion:
    dashboard: DashboardCreate
    unmapped: list[GrafanaUnmapped]


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
