"""Dashboards as code: a dashboard file applied with curl and a service token, as a CI job does.

The file is the one `docs/automation.md` shows (`docs/examples/dashboards/web-hosts.json`),
applied with the command the page gives, so the documented example is the tested one.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import httpx

import stack
from stack import BACKEND, ROOT, needs_stack

EXAMPLE = ROOT / "docs" / "examples" / "dashboards" / "web-hosts.json"


def apply(path: Path, env: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """The docs' command: curl posts the file to import?overwrite=true with the token."""
    out = subprocess.run(
        [
            "curl",
            "-sS",
            "-w",
            "\n%{http_code}",
            "-X",
            "POST",
            f"{env['VIGIL_URL']}/api/v1/workspaces/{env['VIGIL_WORKSPACE']}"
            "/dashboards/import?overwrite=true",
            "-H",
            "Authorization: Bearer " + env["VIGIL_TOKEN"],
            "-H",
            "Content-Type: application/json",
            "--data-binary",
            f"@{path}",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    ).stdout
    body, _, status = out.rpartition("\n")
    return int(status), json.loads(body)


@needs_stack
def test_a_dashboard_file_is_applied_with_curl_and_a_service_token(tmp_path: Path) -> None:
    ws = stack.new_workspace("as-code")
    r = httpx.post(
        f"{BACKEND}/api/v1/workspaces/{ws.id}/keys",
        json={"name": "dashboards from git", "scope": "editor"},
        headers=ws.auth,
        timeout=15,
    )
    assert r.status_code == 201, r.text
    token = r.json()
    assert token["key"].startswith("vgs_")
    env = {"VIGIL_URL": BACKEND, "VIGIL_WORKSPACE": ws.id, "VIGIL_TOKEN": token["key"]}

    status, created = apply(EXAMPLE, env)
    assert status == 201, created
    assert (created["title"], created["version"]) == ("Web hosts", 1)
    # applied again unchanged: nothing new
    status, again = apply(EXAMPLE, env)
    assert (status, again["id"], again["version"]) == (200, created["id"], 1)
    # the file changes in git: the next apply saves one new version of the same dashboard
    doc = json.loads(EXAMPLE.read_text())
    doc["spec"]["panels"][0]["title"] = "CPU used (user)"
    changed = tmp_path / "web-hosts.json"
    changed.write_text(json.dumps(doc))
    status, updated = apply(changed, env)
    assert (status, updated["id"], updated["version"]) == (200, created["id"], 2)
    assert updated["spec"]["panels"][0]["title"] == "CPU used (user)"

    # what the owner sees, and who the audit log says did it
    r = httpx.get(f"{BACKEND}/api/v1/workspaces/{ws.id}/dashboards", headers=ws.auth, timeout=15)
    assert sorted(d["title"] for d in r.json()["data"]) == ["Host overview", "Web hosts"]
    r = httpx.get(
        f"{BACKEND}/api/v1/workspaces/{ws.id}/audit",
        params={"action": "dashboard.*"},
        headers=ws.auth,
        timeout=15,
    )
    events = [(e["action"], e["actor_email"]) for e in r.json()["data"]]
    who = f"key:{token['key_prefix']}"
    assert events[:2] == [("dashboard.update", who), ("dashboard.import", who)]
    r = httpx.get(f"{BACKEND}/api/v1/workspaces/{ws.id}/keys", headers=ws.auth, timeout=15)
    [listed] = [k for k in r.json()["data"] if k["id"] == token["id"]]
    assert listed["last_used_at"] is not None

    # the token is good for its workspace's routes only
    me = subprocess.run(
        ["curl", "-sS", "-o", os.devnull, "-w", "%{http_code}", f"{BACKEND}/api/v1/auth/me"]
        + ["-H", "Authorization: Bearer " + token["key"]],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert me.stdout == "403"
    # nor is it an ingest key
    r = httpx.post(
        f"{stack.GATEWAY}/v1/write/metric",
        content="x v=1",
        headers={"Authorization": f"Token {token['key']}"},
        timeout=15,
    )
    assert r.status_code == 403, r.text
