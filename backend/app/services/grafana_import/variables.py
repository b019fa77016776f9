"""The dashboard's template variables."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from app.schemas.dashboard import PROMQL_VARIABLE_FUNCTIONS, Variable
from app.services.grafana_import.context import _Context
from app.services.grafana_import.targets import _datasource_type, rewrite_variables
from app.services.grafana_import.values import _clip, _dict, _int, _list, _str

_VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
MAX_VARIABLES = 50


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
