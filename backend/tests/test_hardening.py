"""The rules that hold whatever the route: secrets at start-up, the client's address, security
headers, credentials kept out of logs, password work off the shared pool, one storage tenant
per workspace."""

from __future__ import annotations

import asyncio
import io
import ipaddress
import json
import logging
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core import password_work
from app.core.config import Settings
from app.core.errors import Busy
from app.core.logging import RedactSecrets, install_redaction, log_formatter, redact
from app.core.network import client_address
from tests.factories import create_workspace, signup

# --- secrets ----------------------------------------------------------------------------------


def _settings(tmp_path: Path, **env: str) -> Settings:
    return Settings(HOME=tmp_path, _env_file=None, **env)  # type: ignore[call-arg]


def test_placeholder_secrets_are_refused_unless_development_is_explicit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("VIGIL_ENVIRONMENT", "VIGIL_SECRET_KEY", "VIGIL_INTERNAL_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    # unset (the images' case) and production refuse to start with the placeholder
    for env in ({}, {"ENVIRONMENT": "production"}, {"ENVIRONMENT": "test"}):
        with pytest.raises(ValidationError, match="refusing to run with the placeholder"):
            _settings(tmp_path, **env)
    with pytest.raises(ValidationError, match="VIGIL_SECRET_KEY is 5 characters long"):
        _settings(tmp_path, SECRET_KEY="short", INTERNAL_TOKEN="x" * 32)
    # development (what make up and make test set) runs with it
    dev = _settings(tmp_path, ENVIRONMENT="development")
    assert dev.SECRET_KEY == dev.INTERNAL_TOKEN == "changethis"
    # real secrets, from the variables or from the files make up writes, are fine anywhere
    (tmp_path / "secret_key").write_text("s" * 64)
    (tmp_path / "internal_token").write_text("t" * 64)
    assert _settings(tmp_path).SECRET_KEY == "s" * 64


def test_the_smtp_password_comes_from_its_file_unless_set(tmp_path: Path) -> None:
    assert _settings(tmp_path, ENVIRONMENT="development").SMTP_PASSWORD == ""
    (tmp_path / "smtp_password").write_text("mail-secret\n")
    assert _settings(tmp_path, ENVIRONMENT="development").SMTP_PASSWORD == "mail-secret"
    given = _settings(tmp_path, ENVIRONMENT="development", SMTP_PASSWORD="from-env")
    assert given.SMTP_PASSWORD == "from-env"


def test_a_bad_trusted_proxy_entry_stops_start_up_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="'10.0.0.0/33' is not an address or a CIDR range"):
        _settings(tmp_path, ENVIRONMENT="development", TRUSTED_PROXIES="10.0.0.1, 10.0.0.0/33")


def test_a_bad_metrics_allow_entry_stops_start_up_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match=r"METRICS_ALLOW\n.*'::1/200' is not an address"):
        _settings(tmp_path, ENVIRONMENT="development", METRICS_ALLOW="127.0.0.0/8, ::1/200")
    allowed = _settings(tmp_path, ENVIRONMENT="development", METRICS_ALLOW="10.1.0.0/16, ::1")
    assert allowed.metrics_allow == (
        ipaddress.ip_network("10.1.0.0/16"),
        ipaddress.ip_network("::1"),
    )


# --- the client's address ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("peer", "forwarded", "trusted", "want"),
    [
        # no trusted proxy: the header is ignored
        ("203.0.113.5", ["1.1.1.1"], [], "203.0.113.5"),
        # the peer is not trusted: the header is whatever the client wrote
        ("203.0.113.5", ["1.1.1.1"], ["10.0.0.0/8"], "203.0.113.5"),
        # behind one trusted proxy
        ("10.0.0.2", ["198.51.100.7"], ["10.0.0.0/8"], "198.51.100.7"),
        # a spoofed first entry before the real one
        ("10.0.0.2", ["6.6.6.6, 198.51.100.7"], ["10.0.0.0/8"], "198.51.100.7"),
        # two trusted proxies, one header each
        ("10.0.0.2", ["198.51.100.7, 10.0.0.9", "10.0.0.3"], ["10.0.0.0/8"], "198.51.100.7"),
        # ports and IPv6
        ("10.0.0.2", ["198.51.100.7:4711"], ["10.0.0.0/8"], "198.51.100.7"),
        ("::1", ["[2001:db8::1]:443"], ["::1/128"], "2001:db8::1"),
        # garbage past the trusted hops: the last hop we vouch for
        ("10.0.0.2", ["not-an-ip"], ["10.0.0.0/8"], "10.0.0.2"),
        # only trusted hops: the first of them
        ("10.0.0.2", ["10.0.0.7"], ["10.0.0.0/8"], "10.0.0.7"),
    ],
)
def test_client_address(peer: str, forwarded: list[str], trusted: list[str], want: str) -> None:
    nets = [ipaddress.ip_network(t) for t in trusted]
    assert client_address(peer, forwarded, nets) == want


# --- security headers ---------------------------------------------------------------------------


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/api/v1/auth/me", "/api/openapi.json", "/w/1/explore", "/api/nope"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "script-src 'self';" in csp and "unsafe-inline' https" not in csp, path
        assert "frame-ancestors 'none'" in csp
        assert "default-src 'self'" in csp and "object-src 'none'" in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-frame-options"] == "DENY"
    # Swagger UI loads from its CDN and starts with an inline script; it still cannot be framed
    docs = client.get("/api/docs")
    assert "https://cdn.jsdelivr.net" in docs.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in docs.headers["content-security-policy"]


# --- no credential in a log line ---------------------------------------------------------------


def test_redact_removes_every_kind_of_credential() -> None:
    jwt_like = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
    line = (
        f"GET /prometheus/api/v1/query?query=up&token=vgq_abcdefghijk HTTP/1.1 "
        f"key vgi_AAAAAAAAAAAA refresh vgr_BBBBBBBBBBBB link vge_CCCCCCCCCC "
        f"invite /api/v1/invitations/vginv_DDDDDDDDDD bearer {jwt_like} "
        f"/write?db=x&p=secretpassword&u=me /invite?code=vginv_EEEEEEEE"
    )
    cleaned = redact(line)
    for secret in (
        "abcdefghijk",
        "AAAAAAAAAAAA",
        "BBBBBBBBBBBB",
        "CCCCCCCCCC",
        "DDDDDDDDDD",
        "EEEEEEEE",
        "secretpassword",
        "c2lnbmF0dXJl",
    ):
        assert secret not in cleaned, secret
    assert "query=up" in cleaned and "u=me" in cleaned and "GET /prometheus" in cleaned


def test_log_records_are_redacted_on_the_way_out(caplog: pytest.LogCaptureFixture) -> None:
    install_redaction()
    caplog.handler.addFilter(RedactSecrets())
    logging.getLogger("uvicorn.access").propagate = True
    try:
        with caplog.at_level(logging.INFO), caplog.at_level(logging.INFO, "uvicorn.access"):
            logging.getLogger("uvicorn.access").info(
                '%s - "%s %s HTTP/%s" %d',
                "10.0.0.1:5000",
                "GET",
                "/v1/query/raw?token=vgq_topsecretkey",
                "1.1",
                200,
            )
            try:
                raise RuntimeError("bad key vgi_INGESTSECRET1")
            except RuntimeError:
                logging.getLogger("app").exception("failed")
    finally:
        logging.getLogger("uvicorn.access").propagate = False
    text_out = caplog.text
    assert "topsecretkey" not in text_out and "INGESTSECRET1" not in text_out
    assert "token=[redacted]" in text_out and "vgi_[redacted]" in text_out


def test_json_log_lines_are_redacted_value_by_value() -> None:
    """VIGIL_LOG_FORMAT=json: the formatter reads ``extra`` fields and formats the traceback
    itself, past the filter; every value of the line comes out redacted, and it stays JSON."""

    class Opaque:
        def __str__(self) -> str:
            return "holder of vgr_REFRESHSECRET9"

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(log_formatter("json"))
    handler.addFilter(RedactSecrets())
    logger = logging.getLogger("vigil.test.json_redaction")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise RuntimeError("bad key vgi_INGESTSECRET1")
        except RuntimeError:
            logger.exception(
                'GET %s "quoted"',
                '/v1/query/raw?token=vgq_topsecretkey"&q=up',
                extra={
                    "key": "vgq_EXTRASECRET22",
                    "nested": {"link": "?code=vginv_CODE4444"},
                    "holder": Opaque(),
                },
            )
    finally:
        logger.removeHandler(handler)
    text = out.getvalue()
    for secret in ("topsecretkey", "INGESTSECRET1", "EXTRASECRET22", "CODE4444", "REFRESHSECRET9"):
        assert secret not in text, secret
    line = json.loads(text)
    assert line["message"] == 'GET /v1/query/raw?token=[redacted]"&q=up "quoted"'
    assert line["key"] == "vgq_[redacted]"
    assert line["nested"] == {"link": "?code=[redacted]"}
    assert line["holder"] == "holder of vgr_[redacted]"
    assert "RuntimeError: bad key vgi_[redacted]" in line["exc_info"]
    assert line["level"] == "ERROR" and line["logger"] == "vigil.test.json_redaction"


# --- password work ----------------------------------------------------------------------------


def test_password_work_runs_on_its_own_bounded_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from app.core.config import settings

    monkeypatch.setattr(settings, "PASSWORD_WORK_THREADS", 1)
    monkeypatch.setattr(settings, "PASSWORD_WORK_QUEUE", 2)
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=password_work.THREAD_PREFIX)
    monkeypatch.setattr(password_work, "_executor", executor)
    release = threading.Event()
    names: list[str] = []

    def slow_hash() -> str:
        names.append(threading.current_thread().name)
        release.wait(10)
        return "hashed"

    async def scenario() -> list[Any]:
        jobs = [asyncio.ensure_future(password_work.run(slow_hash)) for _ in range(3)]
        await asyncio.sleep(0.05)
        assert password_work.pending() == 3
        # one running, two waiting: the next is refused at once instead of queueing forever
        with pytest.raises(Busy) as refused:
            await password_work.run(slow_hash)
        assert refused.value.status_code == 503 and refused.value.headers() == {"Retry-After": "2"}
        release.set()
        return list(await asyncio.gather(*jobs))

    assert asyncio.run(scenario()) == ["hashed"] * 3
    assert names and all(n.startswith("vigil-password") for n in names)
    executor.shutdown()


def test_sign_ins_waiting_for_password_threads_leave_other_requests_alone(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flood of sign-ins waits on the password threads; a dashboard request meanwhile is
    served by the shared pool at once."""
    import time

    import httpx

    from app.core import security
    from app.core.config import settings
    from tests.live_server import live_server

    with TestClient(app, client=("10.66.0.1", 50000)) as c:
        user = signup(c)
    gate = threading.Event()
    real_verify = security.verify_password

    def blocked_verify(password: str, password_hash: str | None) -> bool:
        gate.wait(20)
        return real_verify(password, password_hash)

    monkeypatch.setattr(security, "verify_password", blocked_verify)
    # each sign-in from an address of its own, so none is held back by the backoff
    monkeypatch.setattr(settings, "TRUSTED_PROXIES", "127.0.0.1")
    with live_server(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=60) as pool:
            logins = [
                pool.submit(
                    http.post,
                    "/api/v1/auth/login",
                    json={"email": f"nobody{n}@example.com", "password": "x"},
                    headers={"X-Forwarded-For": f"192.0.2.{n}"},
                )
                for n in range(60)
            ]
            time.sleep(1.0)
            started = time.monotonic()
            r = http.get("/api/v1/auth/me", headers=user.headers)
            elapsed = time.monotonic() - started
            gate.set()
            codes = sorted(f.result().status_code for f in logins)
    assert r.status_code == 200
    assert elapsed < 2.0, elapsed
    assert set(codes) <= {401, 503}


# --- storage tenants ------------------------------------------------------------------------------


def test_no_two_workspaces_share_a_storage_tenant(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """vigil-storage's cluster mode names a workspace's VictoriaMetrics tenant by the first 8
    bytes of its id; the database refuses a second workspace with the same 8 bytes, and
    creating one draws again."""
    owner = signup(client)
    first = create_workspace(client, owner)
    twin = uuid.UUID(first["id"][:18] + "-8000-000000000000")
    with pytest.raises(IntegrityError, match="uq_workspaces_storage_tenant"):
        db.execute(
            text(
                "INSERT INTO workspaces (id, name, plan_id)"
                " SELECT :id, 'twin', plan_id FROM workspaces WHERE id = :first"
            ),
            {"id": twin, "first": uuid.UUID(first["id"])},
        )
    db.rollback()

    from types import SimpleNamespace

    from app.services import workspaces

    fresh = uuid.uuid4()
    draws = iter([twin, fresh])
    monkeypatch.setattr(workspaces, "uuid", SimpleNamespace(uuid4=lambda: next(draws)))
    second = create_workspace(client, owner)
    assert second["id"] == str(fresh)
