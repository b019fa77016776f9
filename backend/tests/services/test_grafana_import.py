"""The Grafana converter: two community dashboards written in Grafana's export format, and
each mapping (units, colours, reducers, variables, rows, repeats) on its own."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from app.core.errors import InvalidValue
from app.schemas.dashboard import RowPanel
from app.services import grafana_import
from app.services.grafana_import import GrafanaConversion, color, convert, rewrite_variables

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "grafana"


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return data


def unmapped(c: GrafanaConversion) -> list[tuple[str, str, str]]:
    return [(u.kind, u.title, u.reason) for u in c.unmapped]


def panels(c: GrafanaConversion) -> dict[str, Any]:
    """Every panel of the converted dashboard by title, rows and collapsed rows' panels too."""
    return {p.title: p for p in c.dashboard.spec.every_panel()}


def dashboard(panel_list: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"title": "T", "panels": panel_list, **extra}


def prom(expr: str, **extra: Any) -> dict[str, Any]:
    return {"refId": "A", "expr": expr, **extra}


def timeseries(pid: int = 1, *targets: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "id": pid,
        "type": "timeseries",
        "title": f"panel {pid}",
        "gridPos": {"x": 0, "y": 0, "w": 12, "h": 8},
        "targets": list(targets) or [prom("up")],
        **extra,
    }


# --- the two community dashboards -----------------------------------------------------------


def test_node_exporter_full_imports_its_panels_rows_repeat_and_variables() -> None:
    c = convert(fixture("node-exporter-full.json"))
    d = c.dashboard
    assert d.title == "Node Exporter Full"
    assert d.tags == ["linux"]
    assert (d.spec.time.from_, d.spec.time.to, d.spec.refresh, d.spec.timezone) == (
        "now-24h",
        "now",
        "1m",
        None,
    )

    by_title = panels(c)
    kinds = {t: p.type for t, p in by_title.items()}
    assert kinds == {
        "Quick CPU / Mem / Disk": "row",
        "CPU Busy": "gauge",
        "Sys Load": "gauge",
        "RAM Used": "gauge",
        "Filesystem Used": "toplist",
        "CPU Cores": "stat",
        "Uptime": "stat",
        "RAM Total": "stat",
        "About": "text",
        "Basic CPU / Mem / Net / Disk": "row",
        "CPU Basic": "area",
        "Memory Basic": "area",
        "Network Traffic Basic": "timeseries",
        "Disk Space Used Basic": "area",
        "CPU per core": "row",
        "CPU core $cpu": "area",
        "Storage Disk": "row",
        "Disk IOps": "timeseries",
        "Disk IO busy": "heatmap",
        "Filesystem details": "table",
        "Network Traffic": "row",
        "Network Traffic by Packets": "bar",
    }
    # ids from Grafana's, grid positions as they were
    assert by_title["CPU Busy"].id == "p20"
    assert by_title["CPU Busy"].grid.model_dump() == {"x": 0, "y": 1, "w": 3, "h": 4}
    # collapsed rows keep their panels; expanded ones are followed by theirs
    storage = by_title["Storage Disk"]
    assert isinstance(storage, RowPanel) and storage.collapsed
    assert [p.title for p in storage.panels] == ["Disk IOps", "Disk IO busy", "Filesystem details"]
    top = [p.title for p in d.spec.panels]
    assert top.index("CPU per core") + 1 == top.index("CPU core $cpu")

    cpu_busy = by_title["CPU Busy"]
    assert (cpu_busy.unit, cpu_busy.decimals, cpu_busy.min, cpu_busy.max) == ("percent", 1, 0, 100)
    assert [(t.value, t.color) for t in cpu_busy.thresholds] == [
        (85, "#ed8128e3"),
        (95, "#f53636e6"),
    ]
    q = cpu_busy.queries[0]
    assert (q.language, q.ref_id, q.legend_format) == ("promql", "A", None)
    assert q.query == (
        '100 * (1 - avg(rate(node_cpu_seconds_total{mode="idle", instance="$node"}'
        "[$__rate_interval])))"
    )
    fs_used = by_title["Filesystem Used"]
    assert [(t.value, t.color) for t in fs_used.thresholds] == [(80, "#FF780A"), (90, "#C4162A")]
    assert fs_used.queries[0].legend_format == "{{mountpoint}}"

    # units mapped to Vigil's
    units = {t: by_title[t].unit for t in ("RAM Total", "Network Traffic Basic", "Disk IOps")}
    assert units == {"RAM Total": "bytes", "Network Traffic Basic": "bits/s", "Disk IOps": "ops/s"}
    assert by_title["Network Traffic by Packets"].unit == "packets/s"
    # a stat whose colour mode is none shows no threshold colour in Grafana, nor here
    assert by_title["Uptime"].thresholds == []
    # a time series draws no thresholds unless its threshold style says so
    assert by_title["CPU Basic"].thresholds == []

    memory = by_title["Memory Basic"]
    assert [(q.ref_id, q.legend_format, q.hidden) for q in memory.queries] == [
        ("A", "RAM Total", False),
        ("B", "RAM Used", False),
        ("C", "RAM Cache + Buffer", False),
        ("D", "RAM Free", False),
        ("E", "SWAP Used", True),
    ]
    assert memory.stack is True
    assert memory.legend.model_dump() == {
        "show": True,
        "position": "right",
        "values": ["last", "max"],
    }
    net = by_title["Network Traffic Basic"]
    assert [q.min_step for q in net.queries] == ["30s", "30s"]
    assert net.line_width == 2

    per_core = by_title["CPU core $cpu"]
    assert (per_core.repeat, per_core.repeat_direction, per_core.max_per_row) == ("cpu", "h", 4)
    assert by_title["Disk IO busy"].color_scheme == "oranges"
    assert by_title["Filesystem details"].reduce == "last"
    assert by_title["About"].content.startswith("Host **$node** of job `$job`.")

    variables = {v.name: v for v in d.spec.variables}
    assert list(variables) == ["job", "node", "cpu", "diskdevices"]
    assert variables["node"].language == "promql"
    assert variables["node"].query == 'label_values(node_uname_info{job="$job"}, instance)'
    assert (variables["cpu"].multi, variables["cpu"].include_all) == (True, True)
    assert variables["diskdevices"].type == "custom"
    assert variables["diskdevices"].default == ["[a-z]+|nvme[0-9]+n[0-9]+|mmcblk[0-9]+"]

    assert unmapped(c) == [
        ("variable", "Filters", "variables of type 'adhoc' are not supported"),
        ("panel", "Uptime", "value mappings are not supported: values are shown as numbers"),
        ("panel", "CPU Basic", "2 field override(s) are not supported"),
        ("panel", "CPU Basic", "100% stacking is drawn as normal stacking"),
        ("panel", "Filesystem details", "transformations are not supported (organize)"),
        ("panel", "Network packets by device", "panel type 'piechart' has no Vigil equivalent"),
        ("dashboard", "Node Exporter Full", "1 dashboard link(s) are not imported"),
    ]
    assert [u.grafana_id for u in c.unmapped if u.kind == "panel"] == [15, 77, 77, 300, 273]


def test_go_processes_imports_old_graph_and_singlestat_panels() -> None:
    c = convert(fixture("go-processes.json"))
    d = c.dashboard
    assert (d.title, d.tags, d.spec.refresh) == ("Go Processes", ["go", "golang"], "30s")
    assert d.description.startswith("Process status published by Go Prometheus client library")
    by_title = panels(c)
    assert {t: p.type for t, p in by_title.items()} == {
        "process memory": "area",
        "process memory deriv": "area",
        "go memstats": "area",
        "goroutines": "timeseries",
        "gc duration quantiles": "area",
        "open fds": "timeseries",
        "goroutines now": "stat",
        "cpu used": "gauge",
        "runtime": "text",
        "allocations and panics": "bar",
    }
    memory = by_title["process memory"]
    # [[var]] is written ${var}
    assert memory.queries[0].query == (
        'process_resident_memory_bytes{job=~"${job}", instance=~"${instance}"}'
    )
    assert (memory.unit, memory.fill_opacity) == ("bytes", 0.1)
    deriv = by_title["process memory deriv"]
    assert deriv.unit == "bytes/s"
    assert deriv.legend.model_dump() == {
        "show": True,
        "position": "right",
        "values": ["last", "max", "avg"],
    }
    assert by_title["goroutines"].line_width == 2
    assert [(t.value, t.color) for t in by_title["open fds"].thresholds] == [(800, "#F2495C")]
    now = by_title["goroutines now"]
    assert (now.reduce, now.sparkline, now.decimals) == ("last", True, 0)
    assert [(t.value, t.color) for t in now.thresholds] == [
        (1000, "#ed8128e3"),
        (5000, "#d44a3a"),
    ]
    cpu = by_title["cpu used"]
    assert (cpu.reduce, cpu.unit, cpu.min, cpu.max) == ("avg", "percentunit", 0, 1)
    assert cpu.queries[0].min_step == "15s"
    mixed = by_title["allocations and panics"]
    assert [q.ref_id for q in mixed.queries] == ["A"]
    assert mixed.stack is True

    variables = {v.name: v for v in d.spec.variables}
    assert list(variables) == ["job", "instance", "version", "interval"]
    assert variables["instance"].default == []  # All
    assert variables["version"].query == 'query_result(go_info{job=~"$job"})'
    assert variables["version"].regex == '/.*version="([^"]+)".*/'
    assert (variables["interval"].type, variables["interval"].options) == (
        "custom",
        ["1m", "5m", "10m", "30m", "1h"],
    )
    assert variables["interval"].default == ["5m"]

    assert unmapped(c) == [
        (
            "variable",
            "datasource",
            "data source variables are not needed: a Vigil workspace has one data source",
        ),
        ("variable", "interval", "the auto interval option is left out"),
        ("panel", "open fds", "series overrides are not supported"),
        ("panel", "open fds", "legacy alert rules are not imported: create a monitor"),
        ("panel", "firing alerts", "panel type 'alertlist' has no Vigil equivalent"),
        ("query", "allocations and panics", "query B reads the loki data source, not Prometheus"),
        (
            "dashboard",
            "Go Processes",
            "annotation 'Restarts' is not imported (alert events are drawn on panels instead)",
        ),
    ]


def test_the_api_envelope_and_a_given_title() -> None:
    doc = fixture("go-processes.json")
    c = convert({"dashboard": doc, "meta": {"slug": "go-processes"}}, title="Go (copy)")
    assert c.dashboard.title == "Go (copy)"
    assert len(c.dashboard.spec.panels) == 10


# --- one mapping at a time --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grafana", "vigil"),
    [
        ("green", "#73BF69"),
        ("dark-red", "#C4162A"),
        ("super-light-blue", "#C0D8FF"),
        ("#EAB839", "#EAB839"),
        ("rgba(50, 172, 45, 0.97)", "#32ac2df7"),
        ("rgb(31, 120, 193)", "#1f78c1"),
        ("rgba(255,0,255,1)", "#ff00ff"),
        ("transparent", None),
        ("text", None),
        (None, None),
    ],
)
def test_colours(grafana: object, vigil: str | None) -> None:
    assert color(grafana) == vigil


@pytest.mark.parametrize(
    ("grafana", "vigil", "noted"),
    [
        ("percent", "percent", None),
        ("decbytes", "bytes", None),
        ("binBps", "bytes/s", None),
        ("µs", "us", None),
        ("reqps", "req/s", None),
        ("celsius", "°C", None),
        ("suffix:rows", "rows", None),
        (
            "kbytes",
            "none",
            "unit 'kbytes' has no Vigil equivalent: values are shown as plain numbers",
        ),
        (
            "dateTimeAsIso",
            "none",
            "unit 'dateTimeAsIso' has no Vigil equivalent: values are shown as plain numbers",
        ),
    ],
)
def test_units(grafana: str, vigil: str, noted: str | None) -> None:
    c = convert(dashboard([timeseries(1, fieldConfig={"defaults": {"unit": grafana}})]))
    assert c.dashboard.spec.panels[0].unit == vigil  # type: ignore[union-attr]
    assert [u.reason for u in c.unmapped] == ([noted] if noted else [])


@pytest.mark.parametrize(
    ("calcs", "reduce", "noted"),
    [
        (["lastNotNull"], "last", []),
        (["mean"], "avg", []),
        (["max", "min"], "max", ["only the first calculation (max) is shown"]),
        (["range"], "last", ["calculation 'range' is not available: the last value is shown"]),
    ],
)
def test_stat_reducers(calcs: list[str], reduce: str, noted: list[str]) -> None:
    panel = timeseries(1, type="stat", options={"reduceOptions": {"calcs": calcs}})
    c = convert(dashboard([panel]))
    assert c.dashboard.spec.panels[0].reduce == reduce  # type: ignore[union-attr]
    assert [u.reason for u in c.unmapped] == noted


def test_variable_syntaxes_are_rewritten() -> None:
    assert rewrite_variables('up{a="[[a]]", b=~"${b:regex}", c="${c:pipe}", d="$d"}') == (
        'up{a="${a}", b=~"${b}", c="${c}", d="$d"}',
        [],
    )
    assert rewrite_variables('up{a=~"${a:csv}"}') == ('up{a=~"${a}"}', ["${a:csv}"])


def test_variables_of_every_kind() -> None:
    variables = [
        {"name": "a", "type": "query", "query": "label_values(up, job)", "multi": True},
        {"name": "b", "type": "query", "query": {"qryType": 1, "metric": "up", "label": "x"}},
        {"name": "c", "type": "query", "query": {"qryType": 2, "metric": "node_.*"}},
        {"name": "d", "type": "query", "query": "up{job='x'}"},
        {"name": "e", "type": "custom", "query": "one,two\\,three, k : v"},
        {"name": "f", "type": "constant", "query": "eu-west"},
        {"name": "g", "type": "textbox", "query": "web", "current": {"value": "db"}},
        {"name": "h", "type": "query", "datasource": {"type": "loki", "uid": "l"}, "query": "x"},
        {"name": "bad-name", "type": "custom", "query": "x"},
        {"name": "a", "type": "custom", "query": "x"},
        {
            "name": "i",
            "type": "query",
            "query": "label_values(up, job)",
            "includeAll": True,
            "allValue": "web.*",
        },
    ]
    c = convert(dashboard([], templating={"list": variables}))
    out = {v.name: v for v in c.dashboard.spec.variables}
    assert list(out) == ["a", "b", "c", "e", "f", "g", "i"]
    assert out["b"].query == "label_values(up, x)"
    assert out["c"].query == "metrics(node_.*)"
    assert out["e"].options == ["one", "two,three", "v"]
    assert (out["f"].type, out["f"].default) == ("constant", ["eu-west"])
    assert (out["g"].type, out["g"].default) == ("constant", ["db"])
    assert unmapped(c) == [
        (
            "variable",
            "d",
            "query \"up{job='x'}\" is not label_values(), label_names(), metrics() "
            "or query_result()",
        ),
        (
            "variable",
            "g",
            "a text box becomes a constant: change its value in the dashboard's settings",
        ),
        ("variable", "h", "its values come from the loki data source, not Prometheus"),
        (
            "variable",
            "bad-name",
            "the name is not a valid Vigil variable name ([A-Za-z_][A-Za-z0-9_]*)",
        ),
        ("variable", "a", "a second variable by this name is left out"),
        ("variable", "i", "All value 'web.*' is not supported: All means every value (.*)"),
    ]


def test_queries_that_use_a_variable_left_out_are_named() -> None:
    doc = dashboard(
        [timeseries(1, prom('up{job="$j"}'))],
        templating={"list": [{"name": "j", "type": "adhoc"}]},
    )
    assert unmapped(convert(doc))[-1] == (
        "query",
        "panel 1",
        "query A uses $j, a variable that was not imported",
    )


def test_a_repeat_over_a_variable_left_out_draws_once() -> None:
    doc = dashboard([timeseries(1, repeat="ghost")])
    c = convert(doc)
    assert c.dashboard.spec.panels[0].repeat is None
    assert unmapped(c) == [
        ("panel", "panel 1", "repeat for $ghost is left out: that variable was not imported")
    ]


def test_panels_without_prometheus_queries_are_named() -> None:
    doc = dashboard(
        [
            timeseries(1, {"refId": "A", "rawSql": "select 1", "datasource": {"type": "mysql"}}),
            timeseries(2, {"refId": "A", "datasource": {"type": "prometheus"}}),
            timeseries(3, *[prom(f"up{{i='{i}'}}", refId=chr(65 + i)) for i in range(12)]),
            {"id": 4, "type": "graph", "title": "old", "targets": [prom("up")], "timeShift": "1h"},
            {"id": 5, "libraryPanel": {"uid": "abc", "name": "shared"}, "gridPos": {}},
        ]
    )
    c = convert(doc)
    assert unmapped(c) == [
        ("query", "panel 1", "query A reads the mysql data source, not Prometheus"),
        ("panel", "panel 1", "no Prometheus query to draw"),
        ("query", "panel 2", "query A has no PromQL expression (expr)"),
        ("panel", "panel 2", "no Prometheus query to draw"),
        ("query", "panel 3", "query K: a panel holds at most 10 queries"),
        ("query", "panel 3", "query L: a panel holds at most 10 queries"),
        ("panel", "old", "a panel's own time range is not supported (timeShift '1h')"),
        (
            "panel",
            "shared",
            "library panel 'shared' is not in the export (export it for sharing externally)",
        ),
    ]
    assert [p.id for p in c.dashboard.spec.panels] == ["p3", "p4"]
    # a panel without a gridPos goes under the others
    assert c.dashboard.spec.panels[1].grid.y == 8


def test_library_panels_carried_in_the_export_are_drawn() -> None:
    model = timeseries(9, title="shared load")
    doc = dashboard(
        [
            {
                "id": 5,
                "libraryPanel": {"uid": "abc", "name": "shared"},
                "gridPos": {"x": 6, "y": 2, "w": 6, "h": 4},
            }
        ],
        __elements={"abc": {"name": "shared", "uid": "abc", "kind": 1, "model": model}},
    )
    c = convert(doc)
    p = c.dashboard.spec.panels[0]
    assert (p.id, p.title, p.grid.x, p.grid.w) == ("p5", "shared load", 6, 6)


def test_positions_are_fitted_to_the_grid_and_ids_kept_unique() -> None:
    doc = dashboard(
        [
            timeseries(1, gridPos={"x": 20, "y": -3, "w": 30, "h": 0}),
            timeseries(1, gridPos={"x": 0, "y": 4, "w": 6, "h": 500}),
        ]
    )
    a, b = convert(doc).dashboard.spec.panels
    assert (a.id, a.grid.model_dump()) == ("p1", {"x": 20, "y": 0, "w": 4, "h": 8})
    assert (b.id, b.grid.h) == ("p1-2", 100)


@pytest.mark.parametrize(
    ("doc", "field", "detail"),
    [
        ({"title": "x"}, "body.panels", "not a Grafana dashboard: a list of panels is expected"),
        (
            {"title": "x", "panels": {}},
            "body.panels",
            "not a Grafana dashboard: a list of panels is expected",
        ),
        (
            {"title": "x", "rows": [{"panels": []}]},
            "body.rows",
            "this is a dashboard of Grafana 4 or older (rows at the top level): open it in a "
            "newer Grafana and export it again",
        ),
        ({"panels": []}, "body.title", "a Grafana dashboard has a title"),
        (
            {"dashboard": {"panels": [], "title": " "}},
            "body.dashboard.title",
            "a Grafana dashboard has a title",
        ),
        (
            {"title": "x", "panels": [], "templating": {"list": {}}},
            "body.templating.list",
            "a list of variables is expected",
        ),
    ],
)
def test_documents_that_are_not_grafana_dashboards_are_refused(
    doc: dict[str, Any], field: str, detail: str
) -> None:
    with pytest.raises(InvalidValue) as err:
        convert(doc)
    assert err.value.detail == f"{field}: {detail}"


def test_any_json_ends_in_a_dashboard_or_a_refusal() -> None:
    """Values of the wrong type anywhere are skipped or named, never a crash."""
    odd: list[Any] = [None, 1, "x", [], {}, True, 1.5, {"a": [1]}]
    for value in odd:
        doc = {
            "title": "odd",
            "panels": [
                value,
                {"type": "row", "panels": value, "gridPos": value, "collapsed": value},
                {
                    "type": "stat",
                    "targets": [value, {"expr": value, "refId": value}],
                    "options": value,
                },
                {
                    "type": "timeseries",
                    "fieldConfig": {"defaults": value, "overrides": value},
                    "targets": value,
                },
                {"type": "text", "options": value, "title": value},
            ],
            "templating": {"list": [value, {"name": value, "type": "custom", "query": value}]},
            "time": value,
            "refresh": value,
            "timezone": value,
            "tags": value,
            "annotations": value,
            "links": value,
            "__inputs": value,
            "__elements": value,
        }
        c = convert(doc)
        assert c.dashboard.title == "odd"


def test_the_converter_modules_import_one_way() -> None:
    """Each module of the package imports only the ones its docstring lists before it."""
    package = Path(grafana_import.__file__).parent
    order = ["values", "context", "fieldconfig", "targets", "variables", "visualizations"]
    order += ["panels", "dashboard"]
    assert sorted(order) == sorted(p.stem for p in package.glob("*.py") if p.stem != "__init__")
    prefix = "app.services.grafana_import."
    for i, name in enumerate(order):
        tree = ast.parse((package / f"{name}.py").read_text())
        modules = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        imported = {m.removeprefix(prefix) for m in modules if m.startswith(prefix)}
        assert imported <= set(order[:i]), (name, imported - set(order[:i]))
