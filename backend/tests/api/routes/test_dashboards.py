from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.factories import add_member, create_workspace, signup


def panel(panel_id: str, type_: str = "timeseries", **extra: Any) -> dict[str, Any]:
    return {
        "id": panel_id,
        "type": type_,
        "title": panel_id,
        "grid": {"x": 0, "y": 0, "w": 12, "h": 8},
        "queries": [{"query": "M::cpu:(avg(usage_user)) BY host"}],
        **extra,
    }


def spec(*panels: dict[str, Any]) -> dict[str, Any]:
    return {"schema_version": 1, "panels": list(panels)}


def assert_refused(
    client: TestClient, url: str, headers: dict[str, str], cases: list[tuple[dict[str, Any], str]]
) -> None:
    """Each spec of `cases` is refused with a 422 that gives its reason."""
    for bad, reason in cases:
        r = client.post(url, json={"title": "bad", "spec": bad}, headers=headers)
        assert r.status_code == 422, bad
        text = r.json()["detail"] + str(r.json()["errors"])
        assert reason in text, (reason, r.json())


def test_every_panel_type_round_trips(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    panels = [
        panel(
            "ts",
            "timeseries",
            stack=True,
            unit="percent",
            thresholds=[{"value": 80, "color": "#ff0000"}],
            legend={"show": True, "position": "right", "values": ["last", "max"]},
        ),
        panel("area", "area", fill_opacity=0.5),
        panel("bar", "bar", orientation="horizontal"),
        panel("stat", "stat", reduce="max", decimals=2),
        panel("gauge", "gauge", reduce="avg", min=0, max=200, unit="ms"),
        panel("table", "table", page_size=50),
        panel("heat", "heatmap", color_scheme="reds"),
        panel("top", "toplist", limit=5, order="asc"),
        {
            "id": "notes",
            "type": "text",
            "grid": {"x": 0, "y": 8, "w": 24, "h": 3},
            "content": "## Runbook for $host\n\n| a | b |\n|---|---|\n| 1 | 2 |",
        },
    ]
    body = {
        "title": "All panels",
        "tags": ["test"],
        "spec": {
            **spec(*panels),
            "time": {"from": "now-6h", "to": "now"},
            "refresh": "1m",
            "timezone": "Europe/Paris",
            "variables": [
                {
                    "name": "host",
                    "type": "query",
                    "query": "show_tag_value(from=['cpu'], keyin=['host'])",
                },
                {"name": "dc", "type": "custom", "options": ["east", "west"], "multi": True},
            ],
        },
    }
    r = client.post(f"/api/v1/workspaces/{ws['id']}/dashboards", json=body, headers=user.headers)
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["version"] == 1
    assert [p["type"] for p in created["spec"]["panels"]] == [
        "timeseries",
        "area",
        "bar",
        "stat",
        "gauge",
        "table",
        "heatmap",
        "toplist",
        "text",
    ]
    assert created["spec"]["panels"][-1]["content"].startswith("## Runbook for $host")
    assert created["spec"]["time"] == {"from": "now-6h", "to": "now"}
    assert created["spec"]["timezone"] == "Europe/Paris"
    got = client.get(
        f"/api/v1/workspaces/{ws['id']}/dashboards/{created['id']}", headers=user.headers
    )
    assert got.json() == created


def test_invalid_specs_are_refused_with_the_reason(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    url = f"/api/v1/workspaces/{ws['id']}/dashboards"
    cases = [
        (spec(panel("a", "pie")), "body.spec.panels.0"),
        (spec(panel("a", grid={"x": 20, "y": 0, "w": 10, "h": 4})), "x + w must be at most 24"),
        (spec(panel("a"), panel("a")), "duplicate panel id 'a'"),
        (spec(panel("a", queries=[])), "body.spec.panels.0.timeseries.queries"),
        (
            spec(panel("a", thresholds=[{"value": 1, "color": "url(javascript:x)"}])),
            "color must be",
        ),
        ({"schema_version": 2, "panels": []}, "body.spec.schema_version"),
        ({"panels": [], "variables": [{"name": "x", "type": "query"}]}, "needs a query"),
        ({"panels": [], "timezone": "Mars/Olympus"}, "timezone must be an IANA time zone"),
        ({"panels": [], "timezone": "../../etc/passwd"}, "timezone must be an IANA time zone"),
        (spec(panel("a", unknown_field=1)), "unknown_field"),
        # a text panel has no query, and its text has a limit
        (spec(panel("a", "text")), "body.spec.panels.0.text.queries"),
        (spec(panel("a", "gauge", min=10, max=10)), "gauge min must be below max"),
        (
            spec(
                {
                    "id": "a",
                    "type": "text",
                    "grid": {"x": 0, "y": 0, "w": 4, "h": 2},
                    "content": "x" * 20_001,
                }
            ),
            "at most 20000 characters",
        ),
    ]
    assert_refused(client, url, user.headers, cases)


def test_promql_queries_and_variables_round_trip(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    promql = {
        "ref_id": "B",
        "language": "promql",
        "query": 'sum by (mode) (rate(node_cpu_seconds_total{instance="$node"}[$__rate_interval]))',
        "legend_format": "{{mode}}",
        "min_step": "30s",
    }
    body = {
        "title": "Mixed",
        "spec": {
            **spec(panel("p", queries=[{"query": "M::cpu:(avg(usage_user)) BY host"}, promql])),
            "variables": [
                {
                    "name": "node",
                    "type": "query",
                    "language": "promql",
                    "query": "label_values(node_uname_info, instance)",
                    "regex": "/(.*):9100/",
                }
            ],
        },
    }
    r = client.post(f"/api/v1/workspaces/{ws['id']}/dashboards", json=body, headers=user.headers)
    assert r.status_code == 201, r.text
    queries = r.json()["spec"]["panels"][0]["queries"]
    assert queries[0]["language"] == "dql" and queries[0]["min_step"] is None
    assert queries[1] == {**promql, "hidden": False}
    variable = r.json()["spec"]["variables"][0]
    assert (variable["language"], variable["regex"]) == ("promql", "/(.*):9100/")


def test_bad_promql_settings_are_refused_with_the_reason(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    url = f"/api/v1/workspaces/{ws['id']}/dashboards"

    def query(**extra: Any) -> dict[str, Any]:
        return spec(panel("a", queries=[{"query": "up", "language": "promql", **extra}]))

    def variable(query: str) -> dict[str, Any]:
        return {
            "panels": [],
            "variables": [{"name": "v", "type": "query", "language": "promql", "query": query}],
        }

    cases = [
        (query(language="sql"), "body.spec.panels.0.timeseries.queries.0.language"),
        (query(min_step="500ms"), "min_step must be a duration of at least 1s"),
        (query(min_step="soon"), "min_step must be a duration of at least 1s such as 15s or 1m"),
        (
            variable("up{job='x'}"),
            "variable 'v': a PromQL variable's query is label_values(…), label_names(), "
            "metrics(…) or query_result(…)",
        ),
    ]
    assert_refused(client, url, user.headers, cases)
    for ok in ("label_values(job)", " metrics(node_.*) ", "query_result(count(up) by (job))"):
        r = client.post(url, json={"title": "v", "spec": variable(ok)}, headers=user.headers)
        assert r.status_code == 201, (ok, r.text)


def test_versions_restore_and_conflicts(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    base = f"/api/v1/workspaces/{ws['id']}/dashboards"
    d = client.post(
        base, json={"title": "v1", "spec": spec(panel("a"))}, headers=user.headers
    ).json()
    url = f"{base}/{d['id']}"
    r = client.patch(
        url,
        json={
            "title": "v2",
            "spec": spec(panel("a"), panel("b")),
            "message": "add b",
            "base_version": 1,
        },
        headers=user.headers,
    )
    assert r.status_code == 200 and r.json()["version"] == 2
    r = client.patch(url, json={"title": "stale", "base_version": 1}, headers=user.headers)
    assert r.status_code == 409
    assert r.json()["code"] == "version_conflict"
    versions = client.get(f"{url}/versions", headers=user.headers).json()
    assert [(v["version"], v["title"], v["message"]) for v in versions["data"]] == [
        (2, "v2", "add b"),
        (1, "v1", "created"),
    ]
    v1 = client.get(f"{url}/versions/1", headers=user.headers).json()
    assert [p["id"] for p in v1["spec"]["panels"]] == ["a"]
    r = client.post(f"{url}/versions/1/restore", headers=user.headers)
    assert r.status_code == 200
    restored = r.json()
    assert restored["version"] == 3 and restored["title"] == "v1"
    assert [p["id"] for p in restored["spec"]["panels"]] == ["a"]
    assert client.get(f"{url}/versions/9", headers=user.headers).status_code == 404


def test_export_then_import_elsewhere(client: TestClient) -> None:
    user = signup(client)
    ws_a, ws_b = create_workspace(client, user), create_workspace(client, user)
    dashboards = client.get(
        f"/api/v1/workspaces/{ws_a['id']}/dashboards", headers=user.headers
    ).json()
    host = dashboards["data"][0]
    exported = client.get(
        f"/api/v1/workspaces/{ws_a['id']}/dashboards/{host['id']}/export", headers=user.headers
    ).json()
    assert exported["format"] == "vigil.dashboard"
    exported["title"] = "Imported hosts"
    r = client.post(
        f"/api/v1/workspaces/{ws_b['id']}/dashboards/import", json=exported, headers=user.headers
    )
    assert r.status_code == 201
    assert r.json()["spec"] == exported["spec"]
    assert r.json()["workspace_id"] == ws_b["id"]


def test_host_overview_is_valid_and_uses_the_host_variable(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    listed = client.get(f"/api/v1/workspaces/{ws['id']}/dashboards", headers=user.headers).json()
    d = client.get(
        f"/api/v1/workspaces/{ws['id']}/dashboards/{listed['data'][0]['id']}", headers=user.headers
    ).json()
    assert d["spec"]["variables"][0]["name"] == "host"
    assert d["spec"]["variables"][0]["query"] == "show_tag_value(from=['cpu'], keyin=['host'])"
    measurements = {
        q["query"].split("::")[1].split(":")[0] for p in d["spec"]["panels"] for q in p["queries"]
    }
    assert measurements == {"cpu", "mem", "disk", "diskio", "net", "system"}


def test_viewer_reads_editor_writes(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    viewer = add_member(client, owner, ws["id"], "viewer")
    editor = add_member(client, owner, ws["id"], "editor")
    base = f"/api/v1/workspaces/{ws['id']}/dashboards"
    assert client.post(base, json={"title": "x"}, headers=viewer.headers).status_code == 403
    r = client.post(base, json={"title": "x"}, headers=editor.headers)
    assert r.status_code == 201
    assert client.get(f"{base}/{r.json()['id']}", headers=viewer.headers).status_code == 200
    assert client.delete(f"{base}/{r.json()['id']}", headers=editor.headers).status_code == 200


def test_search_and_tag_filter(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    base = f"/api/v1/workspaces/{ws['id']}/dashboards"
    client.post(base, json={"title": "Kafka lag", "tags": ["kafka"]}, headers=user.headers)
    client.post(base, json={"title": "100% CPU"}, headers=user.headers)

    def titles(**params: str) -> list[str]:
        r = client.get(base, params=params, headers=user.headers)
        return [d["title"] for d in r.json()["data"]]

    assert titles(search="lag") == ["Kafka lag"]
    assert titles(search="%") == ["100% CPU"]
    assert titles(tag="kafka") == ["Kafka lag"]
    assert titles(tag="vigil-agent") == ["Host overview"]


def test_default_time_shift_round_trips_through_save_export_and_import(
    client: TestClient,
) -> None:
    user = signup(client)
    ws_a, ws_b = create_workspace(client, user), create_workspace(client, user)
    base = f"/api/v1/workspaces/{ws_a['id']}/dashboards"
    r = client.post(
        base,
        json={"title": "Shifted", "spec": {**spec(panel("a")), "time_shift": "1d"}},
        headers=user.headers,
    )
    assert r.status_code == 201, r.text
    url = f"{base}/{r.json()['id']}"
    assert client.get(url, headers=user.headers).json()["spec"]["time_shift"] == "1d"

    r = client.patch(
        url,
        json={"spec": {**spec(panel("a")), "time_shift": "1h30m"}, "base_version": 1},
        headers=user.headers,
    )
    assert r.status_code == 200 and r.json()["spec"]["time_shift"] == "1h30m"
    v1 = client.get(f"{url}/versions/1", headers=user.headers).json()
    assert v1["spec"]["time_shift"] == "1d"

    exported = client.get(f"{url}/export", headers=user.headers).json()
    assert exported["spec"]["time_shift"] == "1h30m"
    r = client.post(
        f"/api/v1/workspaces/{ws_b['id']}/dashboards/import", json=exported, headers=user.headers
    )
    assert r.status_code == 201 and r.json()["spec"]["time_shift"] == "1h30m"

    # Without the field (older documents) or with null, there is no default comparison.
    r = client.patch(url, json={"spec": spec(panel("a"))}, headers=user.headers)
    assert r.status_code == 200 and r.json()["spec"]["time_shift"] is None


def test_a_bad_default_time_shift_is_refused_naming_the_field(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    url = f"/api/v1/workspaces/{ws['id']}/dashboards"
    for good in ("1d", "7d", "1w", "36h", "90m", "365d"):
        r = client.post(
            url, json={"title": "ok", "spec": {"time_shift": good}}, headers=user.headers
        )
        assert r.status_code == 201, (good, r.text)
        assert r.json()["spec"]["time_shift"] == good
    cases = [
        ("1 day", "time_shift must be a duration such as 1d, 12h or 1w (got '1 day')"),
        ("yesterday", "(got 'yesterday')"),
        ("d1", "(got 'd1')"),
        ("", "(got '')"),
        (" 1d", "(got ' 1d')"),
        ("0d", "longer than zero and at most a year (365d) (got '0d')"),
        ("366d", "at most a year (365d) (got '366d')"),
        ("53w", "(got '53w')"),
        (1, "Input should be a valid string"),
    ]
    for bad, reason in cases:
        r = client.post(
            url, json={"title": "bad", "spec": {"time_shift": bad}}, headers=user.headers
        )
        assert r.status_code == 422, bad
        body = r.json()
        assert body["code"] == "validation_error"
        assert body["detail"].startswith("body.spec.time_shift: "), body
        assert reason in body["detail"], (reason, body)


def test_text_with_nul_is_a_422_wherever_it_is(client: TestClient) -> None:
    """PostgreSQL text cannot hold U+0000: any field carrying one is refused, saying so."""
    user = signup(client)
    ws = create_workspace(client, user)
    base = f"/api/v1/workspaces/{ws['id']}"
    for path, body in (
        ("/dashboards/import", {"title": "\u0000", "spec": {}}),
        ("/dashboards", {"title": "a\u0000b"}),
        ("/saved-queries", {"name": "\u0000", "query": "M::cpu:(usage_user)"}),
    ):
        r = client.post(base + path, json=body, headers=user.headers)
        assert r.status_code == 422, (path, r.text)
        assert r.json()["detail"] == "text must not contain NUL (\\u0000) characters", path
    # nothing half-written, and the next request works
    r = client.get(base + "/dashboards", headers=user.headers)
    assert r.status_code == 200
    assert all("\u0000" not in d["title"] for d in r.json()["data"])


def test_text_with_a_lone_surrogate_is_a_422_wherever_it_is(client: TestClient) -> None:
    """JSON may escape half of a UTF-16 pair (\\udcff), which is no Unicode character: any
    field carrying one is refused, saying so, whether it was to be stored or sent on."""
    user = signup(client)
    ws = create_workspace(client, user)
    base = f"/api/v1/workspaces/{ws['id']}"
    headers = {**user.headers, "Content-Type": "application/json"}
    for path, raw in (
        ("/dashboards/import", '{"title": "\\udcff", "spec": {}}'),
        ("/dashboards", '{"title": "a\\ud800b"}'),
        ("/saved-queries", '{"name": "x", "query": "M::cpu:(usage_user) {host=\\"\\udcff\\"}"}'),
        ("/query/raw", '{"queries": [{"query": "M::cpu:(usage_user) {host=\\"\\udcff\\"} [1h]"}]}'),
        ("/query/raw", '{"queries": [{"query": "M::cpu:(usage_user)", "x": {"a": "\\ud800"}}]}'),
    ):
        r = client.post(base + path, content=raw.encode(), headers=headers)
        assert r.status_code == 422, (path, r.text)
        assert r.json()["code"] == "validation_error", (path, r.text)
        assert "unicode" in r.json()["detail"].lower(), (path, r.text)
    r = client.get(base + "/dashboards", headers=user.headers)
    assert r.status_code == 200


def row(row_id: str, y: int, *, collapsed: bool = False, **extra: Any) -> dict[str, Any]:
    return {
        "id": row_id,
        "type": "row",
        "title": f"Row {row_id}",
        "grid": {"x": 0, "y": y, "w": 24, "h": 1},
        "collapsed": collapsed,
        **extra,
    }


def test_rows_and_repeated_panels_round_trip(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    inside = panel("disk", grid={"x": 0, "y": 10, "w": 12, "h": 8})
    body = {
        "title": "Rows",
        "spec": {
            "variables": [{"name": "host", "type": "custom", "options": ["a", "b"], "multi": True}],
            "panels": [
                row("cpu-row", 0),
                panel(
                    "cpu",
                    grid={"x": 0, "y": 1, "w": 12, "h": 8},
                    repeat="host",
                    repeat_direction="h",
                    max_per_row=3,
                ),
                row("disk-row", 9, collapsed=True, panels=[inside], repeat="host"),
            ],
        },
    }
    r = client.post(f"/api/v1/workspaces/{ws['id']}/dashboards", json=body, headers=user.headers)
    assert r.status_code == 201, r.text
    got = r.json()["spec"]["panels"]
    assert [p["type"] for p in got] == ["row", "timeseries", "row"]
    assert got[0]["collapsed"] is False and got[0]["panels"] == []
    assert (got[1]["repeat"], got[1]["repeat_direction"], got[1]["max_per_row"]) == ("host", "h", 3)
    assert got[2]["collapsed"] is True and got[2]["repeat"] == "host"
    assert [p["id"] for p in got[2]["panels"]] == ["disk"]
    assert got[2]["panels"][0]["repeat"] is None


def test_invalid_rows_and_repeats_are_refused_with_the_reason(client: TestClient) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    url = f"/api/v1/workspaces/{ws['id']}/dashboards"
    inner = panel("a", grid={"x": 0, "y": 2, "w": 12, "h": 8})
    cases = [
        (spec(row("r", 0, grid={"x": 0, "y": 0, "w": 12, "h": 1})), "must span the dashboard"),
        (spec(row("r", 0, grid={"x": 0, "y": 0, "w": 24, "h": 3})), "must span the dashboard"),
        (spec(row("r", 0, panels=[inner])), "row 'r' is expanded"),
        # a panel id is unique among the panels of collapsed rows too
        (spec(panel("a"), row("r", 9, collapsed=True, panels=[inner])), "duplicate panel id 'a'"),
        # rows do not nest
        (
            spec(row("r", 0, collapsed=True, panels=[row("s", 1)])),
            "body.spec.panels.0.row.panels.0",
        ),
        (spec(panel("a", repeat="host")), "repeats for $host, which is not a variable"),
        (spec(row("r", 0, repeat="dc")), "row 'r' repeats for $dc, which is not a variable"),
        (spec(panel("a", repeat="host", max_per_row=0)), "max_per_row"),
        (
            spec(row("r", 0, collapsed=True, panels=[panel(f"p{i}") for i in range(200)])),
            "at most 200 panels",
        ),
    ]
    assert_refused(client, url, user.headers, cases)


def test_import_with_overwrite_applies_a_file_by_its_title(client: TestClient) -> None:
    """Dashboards kept as files: applying one twice changes nothing, a changed file saves one
    new version of the same dashboard."""
    user = signup(client)
    ws = create_workspace(client, user)
    base = f"/api/v1/workspaces/{ws['id']}/dashboards"
    apply = f"{base}/import?overwrite=true"
    doc = {
        "format": "vigil.dashboard",
        "title": "As code",
        "tags": ["git"],
        "spec": spec(panel("a")),
    }
    r = client.post(apply, json=doc, headers=user.headers)
    assert r.status_code == 201, r.text
    created = r.json()
    assert (created["title"], created["version"], created["tags"]) == ("As code", 1, ["git"])
    r = client.post(apply, json=doc, headers=user.headers)
    assert (r.status_code, r.json()["id"], r.json()["version"]) == (200, created["id"], 1)
    changed = {**doc, "spec": spec(panel("a"), panel("b"))}
    r = client.post(apply, json=changed, headers=user.headers)
    assert (r.status_code, r.json()["id"], r.json()["version"]) == (200, created["id"], 2)
    assert [p["id"] for p in r.json()["spec"]["panels"]] == ["a", "b"]
    versions = client.get(f"{base}/{created['id']}/versions", headers=user.headers).json()
    assert [(v["version"], v["message"]) for v in versions["data"]] == [
        (2, "applied"),
        (1, "imported"),
    ]
    events = client.get(
        f"/api/v1/workspaces/{ws['id']}/audit",
        params={"action": "dashboard.*"},
        headers=user.headers,
    ).json()["data"]
    assert [e["action"] for e in events] == ["dashboard.update", "dashboard.import"]
    # without overwrite, import adds another; then the title no longer says which to update
    assert client.post(f"{base}/import", json=doc, headers=user.headers).status_code == 201
    r = client.post(apply, json=doc, headers=user.headers)
    assert r.status_code == 409
    assert r.json() == {
        "detail": "Several dashboards are titled 'As code': rename or delete the extra ones, "
        "or update one by its id",
        "code": "ambiguous_title",
    }
