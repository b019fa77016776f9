"""Test fixtures on a real PostgreSQL.

A fresh database ``vigil_test_<random>`` is created on the server named by
``VIGIL_TEST_DATABASE_URL`` (else ``VIGIL_DATABASE_URL``, else the local stack's default),
migrated with ``alembic upgrade head``, and dropped at the end. The app is imported only
after the environment points at it. vigil-storage is replaced by ``httpx.MockTransport``
(see ``StorageMock``); the real storage path is covered by the end-to-end suite.
"""

from __future__ import annotations

import os
import secrets
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from sqlalchemy.engine import make_url

from tests.smtp_server import SmtpServer, smtp_server
from tests.storage_mock import StorageMock

if TYPE_CHECKING:
    from fastapi import FastAPI
    from fastapi.testclient import TestClient
    from sqlalchemy.orm import Session

DEFAULT_URL = "postgresql+psycopg://vigil:vigil@127.0.0.1:55432/vigil"
_state: dict[str, Any] = {}


def _server_dsn(url: str, database: str) -> str:
    u = make_url(url).set(drivername="postgresql", database=database)
    return u.render_as_string(hide_password=False)


def pytest_configure(config: pytest.Config) -> None:
    # hypothesis (under schemathesis) keeps its cache out of the source tree
    from hypothesis.configuration import set_hypothesis_home_dir

    set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "vigil-backend-hypothesis")
    base = os.environ.get("VIGIL_TEST_DATABASE_URL") or os.environ.get(
        "VIGIL_DATABASE_URL", DEFAULT_URL
    )
    name = f"vigil_test_{secrets.token_hex(4)}"
    try:
        with psycopg.connect(
            _server_dsn(base, "postgres"), autocommit=True, connect_timeout=5
        ) as c:
            c.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as exc:
        raise pytest.UsageError(
            f"cannot reach PostgreSQL at {make_url(base).render_as_string()}: {exc}\n"
            "Start it (infra/postgres/start.sh) or set VIGIL_TEST_DATABASE_URL."
        ) from exc
    url = make_url(base).set(database=name).render_as_string(hide_password=False)
    _state.update(base=base, name=name, url=url)
    # The real vigil-storage of a running stack (make test starts one), for the integration
    # tests in tests/integration; everything else talks to StorageMock.
    _state.update(
        real_storage_url=os.environ.get("VIGIL_STORAGE_URL", "http://127.0.0.1:8482"),
        real_internal_token=os.environ.get("VIGIL_INTERNAL_TOKEN")
        or _read(
            Path(os.environ.get("VIGIL_HOME", Path(__file__).parents[2] / ".vigil"))
            / "internal_token"
        ),
    )
    # A real SMTP server on loopback receives every email the app sends (sign-up links,
    # password resets); tests read the links from it (tests/smtp_server.py).
    import logging

    logging.getLogger("mail.log").setLevel(logging.WARNING)
    mail = smtp_server()
    _state.update(mail_context=mail, mail=mail.__enter__())
    os.environ.update(
        VIGIL_SMTP_HOST=_state["mail"].host,
        VIGIL_SMTP_PORT=str(_state["mail"].port),
        VIGIL_SMTP_SECURITY="none",
        VIGIL_PUBLIC_URL="http://vigil.test",
        # factories sign many people up from one test client
        VIGIL_EMAIL_REQUESTS_PER_CLIENT_PER_HOUR="1000000",
        VIGIL_EMAILS_PER_ADDRESS_PER_HOUR="1000",
    )
    os.environ.update(
        VIGIL_DATABASE_URL=url,
        VIGIL_ENVIRONMENT="test",
        VIGIL_SECRET_KEY="test-secret-key-" + secrets.token_hex(16),
        VIGIL_INTERNAL_TOKEN="test-internal-token",
        VIGIL_STORAGE_URL="http://storage.test",
        # tests run the retention sweep themselves, with a clock they control
        VIGIL_RETENTION_SWEEP="false",
        # cheaper argon2id in tests only; production keeps the library's defaults
        VIGIL_PASSWORD_HASH_TIME_COST="1",
        VIGIL_PASSWORD_HASH_MEMORY_KIB="1024",
        VIGIL_UI_DIR=os.environ.get("VIGIL_TEST_UI_DIR", "/nonexistent/vigil-ui"),
    )
    from app import migrations

    migrations.upgrade(url)


def pytest_unconfigure(config: pytest.Config) -> None:
    if "mail_context" in _state:
        _state["mail_context"].__exit__(None, None, None)
    if "name" not in _state:
        return
    try:
        from app.core.db import get_engine

        get_engine().dispose()
    except Exception:  # noqa: BLE001 - best effort before dropping
        pass
    with psycopg.connect(_server_dsn(_state["base"], "postgres"), autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{_state["name"]}" WITH (FORCE)')


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


@pytest.fixture(scope="session")
def real_storage() -> tuple[str, str]:
    """(URL, internal token) of a reachable real vigil-storage, or skip."""
    import httpx

    url, token = _state["real_storage_url"], _state["real_internal_token"]
    try:
        ok = httpx.get(f"{url}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        ok = False
    if not ok or not token:
        pytest.skip(f"no vigil-storage at {url} (start the stack: make up / make test)")
    return url, token


def mail_server() -> SmtpServer:
    """The SMTP server every email of the test run goes to."""
    server: SmtpServer = _state["mail"]
    return server


@pytest.fixture(scope="session")
def mailbox() -> SmtpServer:
    return mail_server()


@pytest.fixture(scope="session")
def database_url() -> str:
    return str(_state["url"])


@pytest.fixture(scope="session")
def server_url() -> str:
    return str(_state["base"])


@pytest.fixture()
def db() -> Iterator[Session]:
    from app.core.db import get_sessionmaker

    with get_sessionmaker()() as session:
        yield session


@pytest.fixture()
def storage() -> StorageMock:
    return StorageMock()


@pytest.fixture()
def app(storage: StorageMock) -> FastAPI:
    from app.main import create_app

    return create_app(storage=storage.client(), async_storage=storage.async_client())


@pytest.fixture()
def client(app: FastAPI) -> Iterator[TestClient]:
    from fastapi.testclient import TestClient

    # Each client comes from its own address, so per-address login throttling stays per test.
    address = f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.{secrets.randbelow(254) + 1}"
    with TestClient(app, client=(address, 50000)) as c:
        yield c


@pytest.fixture()
def live_server(app: Any) -> Iterator[str]:
    """The app served by uvicorn on a free loopback port, for real HTTP clients."""
    import uvicorn

    # the server gets the bound socket itself: a port closed and bound again could be taken
    # in between (by any outgoing connection)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(5)
    sock.close()
