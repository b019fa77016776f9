"""Self-monitoring on the real stack: every service's /metrics, scraped by the demo agent
into the demo workspace, draws every panel of the shipped "Vigil itself" dashboard."""

from __future__ import annotations

import os
import time
from typing import Any

import httpx

from stack import (
    ALERTING,
    BACKEND,
    CONSUMER,
    GATEWAY,
    STORAGE,
    demo_auth,
    dql,
    internal_token,
    needs_stack,
    poll,
)

pytestmark = needs_stack


def _dashboard() -> dict[str, Any]:
    headers = demo_auth()
    ws = os.environ["VIGIL_DEMO_WORKSPACE"]
    r = httpx.get(f"{BACKEND}/api/v1/workspaces/{ws}/dashboards", headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    found = [d for d in r.json()["data"] if d["title"] == "Vigil itself"]
    assert len(found) == 1, [d["title"] for d in r.json()["data"]]
    r = httpx.get(
        f"{BACKEND}/api/v1/workspaces/{ws}/dashboards/{found[0]['id']}", headers=headers, timeout=30
    )
    assert r.status_code == 200, r.text
    return r.json()


def test_every_service_serves_prometheus_metrics() -> None:
    token = {"Authorization": f"Bearer {internal_token()}"}
    expect = {
        f"{BACKEND}/metrics": ("vigil_backend_http_requests_total", {}),
        f"{GATEWAY}/metrics": ("vigil_gateway_points_total", token),
        f"{CONSUMER}/metrics": ("vigil_consumer_lag", {}),
        f"{ALERTING}/metrics": ("vigil_alerting_evaluations_total", {}),
        f"{STORAGE}/metrics": ("vm_rows_merged_total", token),
    }
    for url, (name, headers) in expect.items():
        r = httpx.get(url, headers=headers, timeout=30)
        assert r.status_code == 200, f"{url}: {r.status_code} {r.text[:200]}"
        assert f"\n{name}" in r.text, f"{url} lacks {name}"
    # the gateway's and storage's want the token, which the demo agent sends to every target
    for url in (f"{GATEWAY}/metrics", f"{STORAGE}/metrics"):
        assert httpx.get(url, timeout=30).status_code == 401, url


def test_vigil_itself_dashboard_panels_all_have_data() -> None:
    """Each panel's queries over the last 15 minutes: at least one returns a number."""
    panels = _dashboard()["spec"]["panels"]
    assert len(panels) >= 8

    def empty_panels() -> list[str]:
        now = int(time.time() * 1000)
        missing = []
        for panel in panels:
            values = []
            for q in panel["queries"]:
                r = dql(q["query"], time_range=[now - 15 * 60_000, now])
                assert r.status_code == 200, f"{panel['title']}: {q['query']}: {r.text}"
                for series in r.json()["content"][0].get("series") or []:
                    values += [v for row in series["values"] for v in row[1:] if v is not None]
            if not values:
                missing.append(panel["title"])
        return missing

    # the agent scrapes every VIGIL_AGENT_INTERVAL; a rate needs two scrapes in a minute
    poll(lambda: not empty_panels(), timeout=150, every=5, what="every panel has data")
