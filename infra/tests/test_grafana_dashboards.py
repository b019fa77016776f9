"""Grafana dashboards brought to Vigil draw data from real storage.

Node-exporter-like and Go-client-like series are pushed through the gateway as Prometheus
remote_write; the two community dashboards of backend/tests/fixtures/grafana/ are imported
through the API; their PromQL variables are listed through the Prometheus label endpoints
and every visible PromQL query of every panel is run through the query API, the way the UI
asks (qtype promql, a step, Grafana's built-in variables filled in): each returns data.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx

import stack
from stack import BACKEND, NewWorkspace, needs_stack, poll

pytestmark = needs_stack

FIXTURES = stack.ROOT / "backend" / "tests" / "fixtures" / "grafana"
STEP_S = 15
MINUTES = 30
NODES = ("node-a:9100", "node-b:9100")
APIS = ("api-1:8080", "api-2:8080")


def _samples(start_ms: int, value: Any) -> list[tuple[float, int]]:
    """One sample every STEP_S seconds from ``start_ms``; ``value(i)`` for the i-th."""
    return [(float(value(i)), start_ms + i * STEP_S * 1000) for i in range(MINUTES * 60 // STEP_S)]


def node_series(start_ms: int) -> list[stack.Series]:
    out: list[stack.Series] = []
    for n, instance in enumerate(NODES):
        base = {"job": "node", "instance": instance}

        def add(name: str, value: Any, base: dict[str, str] = base, **labels: str) -> None:
            out.append(({"__name__": name, **base, **labels}, _samples(start_ms, value)))

        add("node_uname_info", lambda i: 1, nodename=instance.split(":")[0], sysname="Linux")
        for cpu in ("0", "1"):
            for mode, rate in (("idle", 0.7), ("user", 0.2), ("system", 0.08), ("iowait", 0.02)):
                add(
                    "node_cpu_seconds_total",
                    lambda i, r=rate: 1000 + i * STEP_S * r,
                    cpu=cpu,
                    mode=mode,
                )
        for name, v in (("node_load1", 0.5), ("node_load5", 0.4 + n), ("node_load15", 0.3)):
            add(name, lambda i, v=v: v + (i % 4) / 10)
        gib = 1024**3
        memory = {"MemTotal": 8 * gib, "MemAvailable": 5 * gib, "MemFree": 3 * gib}
        memory.update({"Cached": gib, "Buffers": gib // 4, "SwapTotal": 2 * gib, "SwapFree": gib})
        for name, v in memory.items():
            add(f"node_memory_{name}_bytes", lambda i, v=v: v - (i % 10) * 1024)
        for device, mount, fstype, size in (
            ("/dev/sda1", "/", "ext4", 100 * gib),
            ("tmpfs", "/run", "tmpfs", gib),
        ):
            labels = {"device": device, "mountpoint": mount, "fstype": fstype}
            add("node_filesystem_size_bytes", lambda i, s=size: s, **labels)
            add("node_filesystem_avail_bytes", lambda i, s=size: s * 0.6 - i * 1024, **labels)
        add("node_boot_time_seconds", lambda i: start_ms / 1000 - 86_400)
        add("node_time_seconds", lambda i: start_ms / 1000 + i * STEP_S)
        for name, rate in (
            ("node_network_receive_bytes_total", 125_000),
            ("node_network_transmit_bytes_total", 50_000),
            ("node_network_receive_packets_total", 900),
        ):
            add(name, lambda i, r=rate: i * STEP_S * r, device="eth0")
        for name, rate in (
            ("node_disk_reads_completed_total", 40),
            ("node_disk_writes_completed_total", 25),
            ("node_disk_io_time_seconds_total", 0.1),
        ):
            add(name, lambda i, r=rate: i * STEP_S * r, device="sda")
    return out


def go_series(start_ms: int) -> list[stack.Series]:
    out: list[stack.Series] = []
    for instance in APIS:
        base = {"job": "api", "instance": instance}

        def add(name: str, value: Any, base: dict[str, str] = base, **labels: str) -> None:
            out.append(({"__name__": name, **base, **labels}, _samples(start_ms, value)))

        add("go_info", lambda i: 1, version="go1.22.1")
        add("go_goroutines", lambda i: 40 + i % 7)
        add("go_gc_duration_seconds", lambda i: 0.0001, quantile="0")
        add("go_gc_duration_seconds", lambda i: 0.004, quantile="1")
        for name, v in (
            ("go_memstats_heap_alloc_bytes", 12e6),
            ("go_memstats_heap_inuse_bytes", 16e6),
            ("go_memstats_stack_inuse_bytes", 1e6),
            ("process_resident_memory_bytes", 40e6),
            ("process_virtual_memory_bytes", 900e6),
            ("process_open_fds", 30),
            ("process_max_fds", 1024),
        ):
            add(name, lambda i, v=v: v + (i % 5))
        add("process_cpu_seconds_total", lambda i: i * STEP_S * 0.05)
        add("go_memstats_mallocs_total", lambda i: i * STEP_S * 3000)
    return out


def prometheus(ws: NewWorkspace, path: str, params: list[tuple[str, str]]) -> Any:
    r = httpx.get(
        f"{BACKEND}/api/v1/workspaces/{ws.id}/prometheus/api/v1/{path}",
        params=params,
        headers=ws.auth,
        timeout=30,
    )
    assert r.status_code == 200, (path, params, r.text)
    return r.json()["data"]


def fill(text: str, values: dict[str, list[str]]) -> str:
    """``$name`` / ``${name}`` as the UI fills them: one value as it is, several as a regex
    alternation, none (All) as ``.*``; Grafana's built-ins as the UI fills them for a step of
    STEP_S seconds."""
    builtins = {"__rate_interval": "60s", "__interval": f"{STEP_S}s", "__range": "1800s"}

    def one(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        if name in builtins:
            return builtins[name]
        if name not in values:
            return m.group(0)
        chosen = values[name]
        return ".*" if not chosen else chosen[0] if len(chosen) == 1 else "|".join(chosen)

    return re.sub(r"\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)", one, text)


def variable_values(
    ws: NewWorkspace, variable: dict[str, Any], chosen: dict[str, list[str]]
) -> list[str]:
    """A PromQL variable's values, asked as the UI asks them."""
    query = fill(variable["query"], chosen)
    m = re.fullmatch(r"\s*(\w+)\((.*)\)\s*", query, re.S)
    assert m, query
    function, args = m.group(1), m.group(2).strip()
    if function == "label_values":
        match, _, label = args.rpartition(",")
        params = [("match[]", match.strip())] if match.strip() else []
        values: list[str] = prometheus(ws, f"label/{label.strip()}/values", params)
    elif function == "query_result":
        data = prometheus(ws, "query", [("query", args)])
        values = [
            "{"
            + ", ".join(
                f'{k}="{v}"' for k, v in sorted(r["metric"].items()) if not k.startswith("__")
            )
            + "}"
            for r in data["result"]
        ]
    else:
        raise AssertionError(f"unexpected variable query {query}")
    regex = (variable.get("regex") or "").strip()
    if regex:
        pattern = re.compile(regex[1:-1] if regex.startswith("/") else regex)
        values = [m.group(1) if m.groups() else v for v in values if (m := pattern.match(v))]
    return sorted(set(values))


def run(ws: NewWorkspace, query: str, start_ms: int, end_ms: int) -> list[dict[str, Any]]:
    r = httpx.post(
        f"{BACKEND}/api/v1/workspaces/{ws.id}/query/raw",
        json={
            "queries": [
                {
                    "query": query,
                    "qtype": "promql",
                    "time_range": [start_ms, end_ms],
                    "step": f"{STEP_S}s",
                    "max_point": 720,
                }
            ]
        },
        headers=ws.auth,
        timeout=60,
    )
    assert r.status_code == 200, (query, r.text)
    return list(r.json()["content"][0]["series"])


def import_fixture(ws: NewWorkspace, name: str) -> dict[str, Any]:
    r = httpx.post(
        f"{BACKEND}/api/v1/workspaces/{ws.id}/dashboards/import/grafana",
        json=json.loads((FIXTURES / name).read_text()),
        headers=ws.auth,
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def every_panel(spec: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for p in spec["panels"]:
        out.append(p)
        out.extend(p.get("panels") or [])
    return [p for p in out if p["type"] not in ("row", "text")]


def check_dashboard(
    ws: NewWorkspace,
    result: dict[str, Any],
    expected: dict[str, list[str]],
    window: tuple[int, int],
) -> None:
    spec = result["dashboard"]["spec"]
    chosen: dict[str, list[str]] = {}
    for v in spec["variables"]:
        if v["type"] == "query":
            values = variable_values(ws, v, chosen)
            assert values == expected[v["name"]], (v["name"], values)
            # a single-value variable takes its first value, as the picker does; All is none
            chosen[v["name"]] = [] if v["multi"] else values[:1]
        else:
            chosen[v["name"]] = v["default"] or v["options"][:1]
    empty = []
    ran = 0
    for panel in every_panel(spec):
        scope = dict(chosen)
        if panel.get("repeat"):
            scope[panel["repeat"]] = expected[panel["repeat"]][:1]  # the first copy
        for q in panel["queries"]:
            if q["hidden"]:
                continue
            assert q["language"] == "promql"
            series = run(ws, fill(q["query"], scope), *window)
            ran += 1
            if not any(v is not None for s in series for _, v in s["values"]):
                empty.append((panel["title"], q["ref_id"], fill(q["query"], scope)))
    assert ran > 0
    assert empty == [], f"panels without data: {empty}"


def test_grafana_dashboards_draw_from_real_storage() -> None:
    ws = stack.new_workspace("grafana")
    now = int(time.time() * 1000)
    start = now - MINUTES * 60_000
    for batch in (node_series(start), go_series(start)):
        r = ws.remote_write(batch)
        assert r.status_code == 204, r.text
    poll(
        lambda: len(prometheus(ws, "label/instance/values", [("match[]", "go_info")])) == 2,
        timeout=60,
        what="the pushed series queryable",
    )
    window = (start + 5 * 60_000, now)

    node = import_fixture(ws, "node-exporter-full.json")
    assert len(node["unmapped"]) == 7
    check_dashboard(
        ws,
        node,
        {"job": ["node"], "node": list(NODES), "cpu": ["0", "1"]},
        window,
    )

    go = import_fixture(ws, "go-processes.json")
    assert [u["title"] for u in go["unmapped"] if u["kind"] == "panel"] == [
        "open fds",
        "open fds",
        "firing alerts",
    ]
    check_dashboard(
        ws,
        go,
        {"job": ["api"], "instance": list(APIS), "version": ["go1.22.1"]},
        window,
    )
