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


def test_existing_workspaces_move_to_the_default_plan_within_its_ceilings(server_url: str) -> None:
    """Before plans, owners could raise their own limits: the migration puts every workspace
    on the default plan, brings such limits down to its ceilings and audits each change."""
    name = f"vigil_migr_{secrets.token_hex(4)}"
    admin = make_url(server_url).set(drivername="postgresql", database="postgres")
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    plain = url.replace("postgresql+psycopg://", "postgresql://")
    try:
        migrations.upgrade(url, "0003")
        with psycopg.connect(plain) as conn:
            for ws, pps, series in (
                ("11111111-1111-1111-1111-111111111111", 100_000, 500_000),  # as created
                ("22222222-2222-2222-2222-222222222222", 50_000_000, 10),  # raised by its owner
            ):
                conn.execute("INSERT INTO workspaces (id, name) VALUES (%s, 'w')", (ws,))
                conn.execute(
                    "INSERT INTO workspace_limits VALUES (%s, %s, 200000, 16777216, %s, 30, "
                    "1000000, 30)",
                    (ws, pps, series),
                )
        migrations.upgrade(url)
        with psycopg.connect(plain) as conn:
            plans = conn.execute("SELECT id, name, is_default FROM plans").fetchall()
            assert [(p[1], p[2]) for p in plans] == [("Default", True)]
            rows = conn.execute(
                "SELECT w.plan_id, l.ingest_points_per_second, l.active_series, l.max_members, "
                "l.max_dashboards FROM workspaces w JOIN workspace_limits l "
                "ON l.workspace_id = w.id ORDER BY w.id"
            ).fetchall()
            assert rows == [
                (plans[0][0], 100_000, 500_000, 50, 200),
                (plans[0][0], 100_000, 10, 50, 200),
            ]
            events = conn.execute(
                "SELECT workspace_id::text, actor_email, action, details FROM audit_log"
            ).fetchall()
            assert events == [
                (
                    "22222222-2222-2222-2222-222222222222",
                    "vigil-admin migrate",
                    "limits.update",
                    {"ingest_points_per_second": {"from": 50_000_000, "to": 100_000}},
                )
            ]
    finally:
        with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
