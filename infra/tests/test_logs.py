"""No key, token or invitation code reaches a log line of any service.

The test sends every credential the stack knows every way it can travel (query and ingest keys
and service tokens as `?token=`, HTTP Basic, `p=`, bearer and token headers, right and wrong,
where they belong and where they are refused; session and refresh tokens; email-link tokens;
invitation codes in the lookup path), including the requests that end in errors, where a
careless log line would quote them, and then reads every service's log
under $VIGIL_HOME/log. The runner's own output (test-*.log, install logs) is not a service log:
`make up` prints the demo credentials to the person who asked for them.
"""

from __future__ import annotations

import base64
import os
import re
import secrets
import time
import uuid
from pathlib import Path

import httpx
import pytest

import stack
from stack import BACKEND, GATEWAY, INGEST_KEY, LOG, QUERY_KEY, needs_stack

SECRET_SHAPES = (
    re.compile(r"\b(?:vgi|vgq|vgs|vgr|vge|vginv)_[A-Za-z0-9_-]{16,}"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
)


def service_logs() -> list[Path]:
    return sorted(
        p
        for p in LOG.glob("*.log")
        if not p.name.startswith(("test-", "install")) and p.stat().st_size > 0
    )


def basic(password: str, user: str = "agent") -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


@needs_stack
def test_no_credential_reaches_a_log_line() -> None:
    suffix = uuid.uuid4().hex[:10]
    owner_email = f"logs-{suffix}@example.com"
    session = stack.sign_up(owner_email, f"pw-{suffix}-Secret!")
    auth = {"Authorization": f"Bearer {session['access_token']}"}
    r = httpx.post(f"{BACKEND}/api/v1/workspaces", json={"name": f"logs {suffix}"}, headers=auth)
    ws = r.json()["id"]
    keys = {
        scope: httpx.post(
            f"{BACKEND}/api/v1/workspaces/{ws}/keys",
            json={"name": scope, "scope": scope},
            headers=auth,
        ).json()["key"]
        for scope in ("ingest", "query", "editor")
    }
    invitation = httpx.post(
        f"{BACKEND}/api/v1/workspaces/{ws}/invitations",
        json={"email": f"invitee-{suffix}@example.com", "role": "viewer"},
        headers=auth,
    ).json()["code"]
    wrong_key = "vgq_" + secrets.token_urlsafe(32)
    wrong_ingest = "vgi_" + secrets.token_urlsafe(32)
    wrong_token = "vgs_" + secrets.token_urlsafe(32)
    known = {
        "query key": keys["query"],
        "ingest key": keys["ingest"],
        "demo query key": QUERY_KEY,
        "demo ingest key": INGEST_KEY,
        "access token": session["access_token"],
        "refresh token": session["refresh_token"],
        "invitation code": invitation,
        "made-up query key": wrong_key,
        "made-up ingest key": wrong_ingest,
        "service token": keys["editor"],
        "made-up service token": wrong_token,
        "internal token": stack.internal_token(),
        "demo password": os.environ.get("VIGIL_DEMO_PASSWORD", ""),
    }

    dql = {"queries": [{"query": "M::cpu:(avg(usage_user)) [5m]"}]}
    line = f"logs,host=a v=1 {int(time.time())}"
    for key in (keys["query"], wrong_key):
        httpx.post(f"{BACKEND}/v1/query/raw", params={"token": key}, json=dql)
        httpx.get(f"{BACKEND}/prometheus/api/v1/labels", params={"token": key})
        httpx.get(f"{BACKEND}/prometheus/api/v1/query", params={"query": "up"}, headers=basic(key))
        httpx.post(f"{BACKEND}/v1/query/raw", headers={"Authorization": f"Token {key}"}, json=dql)
    for key in (keys["ingest"], wrong_ingest):
        httpx.post(f"{GATEWAY}/v1/write/metric", params={"token": key}, content=line)
        httpx.post(f"{GATEWAY}/write", params={"db": "x", "u": "telegraf", "p": key}, content=line)
        httpx.post(f"{GATEWAY}/write", headers=basic(key, "telegraf"), content=line)
        token, bearer = {"Authorization": f"Token {key}"}, {"Authorization": f"Bearer {key}"}
        httpx.post(f"{GATEWAY}/api/v2/write", headers=token, content=line)
        httpx.post(f"{GATEWAY}/api/v1/write", headers=bearer, content=b"x")
    # service tokens where they belong, in the ways they are refused, and where they are not
    dashboards = f"{BACKEND}/api/v1/workspaces/{ws}/dashboards"
    for token in (keys["editor"], wrong_token):
        httpx.get(dashboards, headers={"Authorization": f"Bearer {token}"})
        httpx.get(dashboards, params={"token": token})
        httpx.get(dashboards, headers=basic(token))
        httpx.get(f"{BACKEND}/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"})
        httpx.get(f"{BACKEND}/api/v1/workspaces/{uuid.uuid4()}/dashboards", params={"token": token})
        httpx.post(f"{GATEWAY}/v1/write/metric", params={"token": token}, content=line)
    # session tokens where they are refused, and where they belong
    httpx.get(f"{BACKEND}/api/v1/auth/me", params={"token": session["access_token"]})
    httpx.get(dashboards, headers=basic(session["access_token"]))
    httpx.get(f"{BACKEND}/api/v1/auth/me", headers=auth)
    httpx.post(f"{BACKEND}/api/v1/auth/refresh", json={"refresh_token": "vgr_" + "x" * 43})
    refreshed = httpx.post(
        f"{BACKEND}/api/v1/auth/refresh", json={"refresh_token": session["refresh_token"]}
    ).json()
    known["renewed refresh token"] = refreshed["refresh_token"]
    # the spent refresh token again: reuse detection ends the session
    httpx.post(f"{BACKEND}/api/v1/auth/refresh", json={"refresh_token": session["refresh_token"]})
    # invitation codes in the lookup path, a real one and a made-up one
    httpx.get(f"{BACKEND}/api/v1/invitations/{invitation}")
    httpx.get(f"{BACKEND}/api/v1/invitations/vginv_{secrets.token_urlsafe(18)}")
    # email links: a password reset, its token used, and a made-up one
    httpx.post(f"{BACKEND}/api/v1/auth/password-reset", json={"email": owner_email})
    reset = stack.emailed_token(owner_email, "/reset-password")
    known["password-reset token"] = reset
    httpx.post(f"{BACKEND}/api/v1/auth/password-reset/pending", json={"token": reset})
    httpx.post(f"{BACKEND}/api/v1/auth/signup/complete", json={"token": reset, "password": "x"})
    # a wrong password and a page of the UI whose address carries a code
    httpx.post(f"{BACKEND}/api/v1/auth/login", json={"email": owner_email, "password": "nope"})
    httpx.get(f"{BACKEND}/invite", params={"code": invitation})
    time.sleep(2)  # let every service write what it has

    logs = service_logs()
    names = {p.name for p in logs}
    assert {"backend.log", "gateway.log", "storage.log"} <= names, names
    found = []
    for path in logs:
        text = path.read_text(errors="replace")
        for what, secret in known.items():
            if secret and secret in text:
                found.append(f"{path.name}: the {what}")
        for shape in SECRET_SHAPES:
            found.extend(f"{path.name}: {m[:12]}…" for m in shape.findall(text))
    if found:
        pytest.fail("credentials in the logs:\n" + "\n".join(sorted(set(found))))
