"""The migrations build the schema the models describe, and the gateway's query runs on it."""

from __future__ import annotations

import secrets

import psycopg
from sqlalchemy.engine import make_url
from vigil_ingest.gateway.auth import KEY_QUERY, TOUCH_QUERY
from vigil_ingest.gateway.usage import PRUNE, UPSERT

from app import migrations


def test_upgrade_on_empty_database_then_check_is_clean(server_url: str) -> None:
    name = f"vigil_migr_{secrets.token_hex(4)}"
    admin = make_url(server_url).set(drivername="postgresql", database="postgres")
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    try:
        migrations.upgrade(url)
        migrations.check(url)  # raises if autogenerate would produce any operation
        # the gateway's own statements (vigil_ingest), with its driver
        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
            assert conn.execute(KEY_QUERY, {"hash": "0" * 64}).fetchall() == []
            conn.execute(TOUCH_QUERY, {"id": "00000000-0000-0000-0000-000000000000"})
            conn.execute(
                UPSERT,
                {"workspaces": [], "minutes": [], "points": []},
            )
            conn.execute(PRUNE)
    finally:
        with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_downgrade_to_base_and_back(server_url: str) -> None:
    from alembic import command

    name = f"vigil_migr_{secrets.token_hex(4)}"
    admin = make_url(server_url).set(drivername="postgresql", database="postgres")
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    try:
        migrations.upgrade(url)
        command.downgrade(migrations.alembic_config(url), "base")
        migrations.upgrade(url)
        migrations.check(url)
    finally:
        with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
