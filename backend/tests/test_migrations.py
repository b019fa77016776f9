"""The migrations build the schema the models describe, and the gateway's query runs on it."""

from __future__ import annotations

import secrets

import psycopg
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from app import migrations

GATEWAY_QUERY = """
SELECT k.id, k.workspace_id, k.scope, l.ingest_points_per_second, l.ingest_burst, l.max_body_bytes
FROM api_keys k
JOIN workspaces w ON w.id = k.workspace_id AND w.deleted_at IS NULL
JOIN workspace_limits l ON l.workspace_id = k.workspace_id
WHERE k.key_hash = :hash AND k.revoked_at IS NULL
"""


def test_upgrade_on_empty_database_then_check_is_clean(server_url: str) -> None:
    name = f"vigil_migr_{secrets.token_hex(4)}"
    admin = make_url(server_url).set(drivername="postgresql", database="postgres")
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    try:
        migrations.upgrade(url)
        migrations.check(url)  # raises if autogenerate would produce any operation
        engine = create_engine(url)
        with engine.connect() as conn:
            assert conn.execute(text(GATEWAY_QUERY), {"hash": "0" * 64}).all() == []
            conn.execute(
                text("UPDATE api_keys SET last_used_at = now() WHERE id = gen_random_uuid()")
            )
        engine.dispose()
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
