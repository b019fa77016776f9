from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.cli import main, read_env_file
from app.core.security import verify_password
from app.models import ApiKey, Membership, User


def test_demo_creates_then_keeps(tmp_path: Path, db: Session) -> None:
    env_file = tmp_path / "demo.env"
    assert main(["demo", "--env-file", str(env_file)]) == 0
    first = read_env_file(env_file)
    assert set(first) == {
        "VIGIL_DEMO_EMAIL",
        "VIGIL_DEMO_PASSWORD",
        "VIGIL_DEMO_WORKSPACE",
        "VIGIL_DEMO_INGEST_KEY",
        "VIGIL_DEMO_QUERY_KEY",
    }
    assert first["VIGIL_DEMO_INGEST_KEY"].startswith("vgi_")
    assert first["VIGIL_DEMO_QUERY_KEY"].startswith("vgq_")
    assert len(first["VIGIL_DEMO_INGEST_KEY"]) == 4 + 43
    user = db.scalar(select(User).where(User.email == first["VIGIL_DEMO_EMAIL"]))
    assert user is not None and verify_password(first["VIGIL_DEMO_PASSWORD"], user.password_hash)
    # an operator's account needs no emailed link: its address counts as verified
    assert user.email_verified_at is not None
    key = db.scalar(
        select(ApiKey).where(
            ApiKey.key_hash == hashlib.sha256(first["VIGIL_DEMO_INGEST_KEY"].encode()).hexdigest()
        )
    )
    assert key is not None and str(key.workspace_id) == first["VIGIL_DEMO_WORKSPACE"]
    assert key.scope == "ingest" and key.key_prefix == first["VIGIL_DEMO_INGEST_KEY"][:12]

    # second run: everything resolves, nothing changes
    assert main(["demo", "--env-file", str(env_file)]) == 0
    assert read_env_file(env_file) == first
    keys = db.scalars(select(ApiKey).where(ApiKey.workspace_id == key.workspace_id)).all()
    assert len(keys) == 2

    # a revoked key is replaced, the rest is kept
    db.expire_all()
    key = db.get(ApiKey, key.id)
    assert key is not None
    from datetime import UTC, datetime

    key.revoked_at = datetime.now(UTC)
    db.commit()
    assert main(["demo", "--env-file", str(env_file)]) == 0
    third = read_env_file(env_file)
    assert third["VIGIL_DEMO_INGEST_KEY"] != first["VIGIL_DEMO_INGEST_KEY"]
    assert third["VIGIL_DEMO_QUERY_KEY"] == first["VIGIL_DEMO_QUERY_KEY"]
    assert third["VIGIL_DEMO_WORKSPACE"] == first["VIGIL_DEMO_WORKSPACE"]
    members = db.scalars(
        select(Membership).where(Membership.workspace_id == key.workspace_id)
    ).all()
    assert len(members) == 1


def test_demo_refreshes_an_untouched_shipped_dashboard(tmp_path: Path, db: Session) -> None:
    import uuid

    from app.models import Dashboard

    env_file = tmp_path / "demo.env"
    assert main(["demo", "--env-file", str(env_file)]) == 0
    workspace_id = uuid.UUID(read_env_file(env_file)["VIGIL_DEMO_WORKSPACE"])
    dashboard = db.scalar(select(Dashboard).where(Dashboard.workspace_id == workspace_id))
    assert dashboard is not None
    old_spec = dict(dashboard.spec, panels=dashboard.spec["panels"][:1])
    dashboard.spec = old_spec  # as an older release shipped it, never saved since
    dashboard.version = 1
    db.commit()
    assert main(["demo", "--env-file", str(env_file)]) == 0
    db.expire_all()
    refreshed = db.get(Dashboard, dashboard.id)
    assert refreshed is not None
    assert refreshed.version == 2 and len(refreshed.spec["panels"]) > 1

    # once saved by someone (version > 1) it is left alone
    refreshed.spec = old_spec
    db.commit()
    assert main(["demo", "--env-file", str(env_file)]) == 0
    db.expire_all()
    kept = db.get(Dashboard, dashboard.id)
    assert kept is not None and kept.spec == old_spec and kept.version == 2


def test_demo_without_file_reuses_the_demo_workspace(tmp_path: Path) -> None:
    a, b = tmp_path / "a.env", tmp_path / "b.env"
    assert main(["demo", "--env-file", str(a)]) == 0
    assert main(["demo", "--env-file", str(b)]) == 0
    first, second = read_env_file(a), read_env_file(b)
    assert first["VIGIL_DEMO_WORKSPACE"] == second["VIGIL_DEMO_WORKSPACE"]
    assert first["VIGIL_DEMO_EMAIL"] == second["VIGIL_DEMO_EMAIL"]


def test_openapi_command(tmp_path: Path) -> None:
    out = tmp_path / "openapi.json"
    assert main(["openapi", "--output", str(out)]) == 0
    import json

    spec = json.loads(out.read_text())
    assert "/api/v1/auth/login" in spec["paths"]
    assert spec["paths"]["/api/v1/auth/login"]["post"]["operationId"] == "auth-login"


def test_retention_sweep_command(capsys: pytest.CaptureFixture[str]) -> None:
    """Against the settings' storage, which tests point at an address nothing answers: every
    workspace is reported with the error, and the exit status says so."""
    assert main(["retention-sweep", "--force"]) == 1
    out = capsys.readouterr().out
    assert "error: vigil-storage is unreachable" in out
    assert out.rstrip().endswith("workspaces swept")
