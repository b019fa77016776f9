"""Query targets: data source references, PromQL expressions and their variables."""

from __future__ import annotations

import re
from typing import Any

from app.schemas.dashboard import duration_ms
from app.services.grafana_import.context import _Context
from app.services.grafana_import.values import _clip, _dict, _list, _str

_OLD_VARIABLE = re.compile(r"\[\[([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z]+))?\]\]")
_FORMATTED_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):([A-Za-z]+)\}")
_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
# formats whose text Vigil's `$var` gives too (one value as is, several as a regex alternation)
_SAME_FORMATS = {"regex", "pipe", "raw", "text"}
_REF_ID = re.compile(r"[^A-Za-z0-9_]")
MAX_QUERIES = 10


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
