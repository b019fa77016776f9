"""Shared fixtures.

Integration fixtures use real services: a throwaway PostgreSQL cluster (Debian's
PostgreSQL 15 binaries, ``initdb`` in a temporary directory on a free loopback port) with
the three tables of docs/internals.md, and the Kafka broker at ``VIGIL_KAFKA_BOOTSTRAP``
(started by ``make test`` / ``infra/kafka/start.sh``). When a service is missing, the tests
that need it are skipped with the reason, or fail when ``VIGIL_REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from support import Keys, TopicTail, free_port, missing_service, reachable

from vigil_ingest.common.config import Settings

REPO = Path(__file__).resolve().parents[2]
# infra/lib.sh exports the newest Debian server binaries (15 or newer) as VIGIL_PG_BIN
PG_BINDIR = Path(
    os.environ.get("VIGIL_PG_BIN")
    or max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), default="")
)

# The columns of docs/internals.md ("Data the gateway reads"), nothing more: the backend's
# migrations own the real tables.
SCHEMA = """
CREATE TABLE workspaces (
    id uuid PRIMARY KEY,
    deleted_at timestamptz,
    suspended_at timestamptz,
    suspended_reason text
);
CREATE TABLE workspace_limits (
    workspace_id uuid PRIMARY KEY REFERENCES workspaces (id),
    ingest_points_per_second integer NOT NULL,
    ingest_burst integer NOT NULL,
    max_body_bytes integer NOT NULL,
    retention_days integer NOT NULL,
    active_series integer NOT NULL
);
CREATE TABLE workspace_ingest_minutely (
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    minute timestamptz NOT NULL,
    points bigint NOT NULL,
    PRIMARY KEY (workspace_id, minute)
);
CREATE TABLE workspace_ingest_tokens (
    workspace_id uuid PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    tokens double precision NOT NULL,
    stamp timestamptz NOT NULL
);
CREATE TABLE workspace_ingest_parked (
    workspace_id uuid PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    batches bigint NOT NULL,
    points bigint NOT NULL,
    last_reason text NOT NULL,
    last_at timestamptz NOT NULL
);
CREATE TABLE api_keys (
    id uuid PRIMARY KEY,
    workspace_id uuid NOT NULL REFERENCES workspaces (id),
    key_hash text NOT NULL UNIQUE,
    key_prefix text NOT NULL,
    scope text NOT NULL,
    revoked_at timestamptz,
    last_used_at timestamptz
);
"""


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL with the gateway's three tables; yields a postgresql:// URL."""
    if not (PG_BINDIR / "initdb").exists():
        missing_service(f"PostgreSQL binaries not found in {PG_BINDIR}")
    root = Path(tempfile.mkdtemp(prefix="vigil-ingest-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: run the cluster as the postgres user
        shutil.chown(root, "postgres", "postgres")
        run_as = ["runuser", "-u", "postgres", "--"]
    data, port = root / "data", free_port()

    def pg(*args: str) -> None:
        subprocess.run([*run_as, *args], check=True, capture_output=True, timeout=60)

    pg(
        str(PG_BINDIR / "initdb"),
        "-D",
        str(data),
        "--username=vigil",
        "--auth=trust",
        "--encoding=UTF8",
        "--no-sync",
    )
    pg(
        str(PG_BINDIR / "pg_ctl"),
        "-D",
        str(data),
        "-l",
        str(root / "log"),
        "-w",
        "-o",
        f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off",
        "start",
    )
    try:
        url = f"postgresql://vigil@127.0.0.1:{port}/postgres"
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(SCHEMA)
        yield url
    finally:
        subprocess.run(
            [*run_as, str(PG_BINDIR / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def keys(postgres_url: str) -> Keys:
    return Keys(postgres_url)


@pytest.fixture(scope="session")
def kafka_bootstrap() -> str:
    """The real Kafka broker of the test stack."""
    bootstrap = Settings().kafka_bootstrap
    if not reachable(bootstrap.split(",")[0]):
        missing_service(
            f"Kafka not reachable at {bootstrap} (set VIGIL_KAFKA_BOOTSTRAP or "
            "start it with infra/kafka/start.sh)"
        )
    return bootstrap


@pytest.fixture(scope="session")
def kafka_topics(kafka_bootstrap: str) -> str:
    from vigil_ingest.common.kafka import ensure_topics

    ensure_topics([kafka_bootstrap], Settings().kafka_partitions)
    return kafka_bootstrap


@pytest.fixture
def tail_line(kafka_topics: str) -> Iterator[TopicTail]:
    from vigil_ingest.common.kafka import TOPIC_LINE

    t = TopicTail(kafka_topics, TOPIC_LINE)
    yield t
    t.close()


@pytest.fixture
def tail_otlp(kafka_topics: str) -> Iterator[TopicTail]:
    from vigil_ingest.common.kafka import TOPIC_OTLP

    t = TopicTail(kafka_topics, TOPIC_OTLP)
    yield t
    t.close()


@pytest.fixture
def tail_promrw(kafka_topics: str) -> Iterator[TopicTail]:
    from vigil_ingest.common.kafka import TOPIC_PROMRW

    t = TopicTail(kafka_topics, TOPIC_PROMRW)
    yield t
    t.close()
