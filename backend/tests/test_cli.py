from __future__ import annotations

import hashlib
import secrets
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.cli import main, read_env_file
from app.core.security import verify_password
from app.models import ApiKey, Membership, User
from tests.factories import PASSWORD


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
        "VIGIL_DEMO_OPERATOR_EMAIL",
        "VIGIL_DEMO_OPERATOR_PASSWORD",
    }
    operator = db.scalar(select(User).where(User.email == first["VIGIL_DEMO_OPERATOR_EMAIL"]))
    assert operator is not None and operator.is_operator
    assert verify_password(first["VIGIL_DEMO_OPERATOR_PASSWORD"], operator.password_hash)
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


def test_operator_grant_list_revoke(capsys: pytest.CaptureFixture[str], db: Session) -> None:
    from app.models import OperatorAuditEvent
    from app.services import users
    from app.services.audit import Actor

    actor = Actor(None, None, None, None)
    emails = [f"op-{secrets.token_hex(4)}@example.com" for _ in range(2)]
    for email in emails:
        users.create_user(db, email=email, password=PASSWORD, full_name=None, actor=actor)
    db.commit()

    assert main(["operator", "grant", emails[0].upper()]) == 0
    assert capsys.readouterr().out == f"{emails[0]} is a platform operator\n"
    assert main(["operator", "grant", emails[0]]) == 0  # idempotent
    assert main(["operator", "grant", emails[1]]) == 0
    capsys.readouterr()
    assert main(["operator", "list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert set(emails) <= set(listed)

    assert main(["operator", "revoke", emails[0]]) == 0
    assert capsys.readouterr().out == f"{emails[0]} is not a platform operator\n"
    db.expire_all()
    user = users.get_by_email(db, email=emails[0])
    assert user is not None and not user.is_operator
    events = db.scalars(
        select(OperatorAuditEvent)
        .where(OperatorAuditEvent.target_id == str(user.id))
        .order_by(OperatorAuditEvent.created_at)
    ).all()
    assert [(e.action, e.actor_email, e.details) for e in events] == [
        ("operator.grant", "vigil-admin", {"email": emails[0]}),
        ("operator.revoke", "vigil-admin", {"email": emails[0]}),
    ]

    assert main(["operator", "grant", "nobody-here@example.com"]) == 1
    assert "No account with the email nobody-here@example.com" in capsys.readouterr().err
    assert main(["operator", "grant"]) == 2
    assert "an EMAIL is needed" in capsys.readouterr().err


def test_the_last_operator_stays(capsys: pytest.CaptureFixture[str], db: Session) -> None:
    from sqlalchemy import update

    from app.services import users
    from app.services.audit import Actor

    email = f"last-{secrets.token_hex(4)}@example.com"
    users.create_user(
        db, email=email, password=PASSWORD, full_name=None, actor=Actor(None, None, None, None)
    )
    db.execute(update(User).values(is_operator=False))
    db.commit()
    assert main(["operator", "grant", email]) == 0
    capsys.readouterr()
    assert main(["operator", "revoke", email]) == 1
    assert capsys.readouterr().err == (
        f"vigil-admin operator revoke: {email} is the last operator: grant the role to "
        "someone else first\n"
    )


def test_retention_sweep_command(capsys: pytest.CaptureFixture[str]) -> None:
    """Against the settings' storage, which tests point at an address nothing answers: every
    workspace is reported with the error, and the exit status says so."""
    assert main(["retention-sweep", "--force"]) == 1
    out = capsys.readouterr().out
    assert "error: vigil-storage is unreachable" in out
    assert out.rstrip().endswith("workspaces swept")


def test_plan_set_list_assign(
    capsys: pytest.CaptureFixture[str], db: Session, client: TestClient
) -> None:
    import uuid

    from app.models import OperatorAuditEvent, Plan, Workspace, WorkspaceLimits
    from tests.factories import create_workspace, signup

    name = f"Fast {secrets.token_hex(3)}"
    assert main(["plan", "set", name, "min_monitor_interval_seconds=1", "max_monitors=7"]) == 0
    assert capsys.readouterr().out == f"plan {name} created\n"
    assert main(["plan", "list"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith(name + ":"))
    assert "0 workspaces" in line and "max_monitors=7 " in line
    assert "min_monitor_interval_seconds=1 " in line

    ws = create_workspace(client, signup(client))
    wid = uuid.UUID(ws["id"])
    assert main(["plan", "assign", ws["id"], name.upper()]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"workspace {ws['id']} is on the plan {name}\n")
    assert "  max_monitors: " in out and "-> 7" in out  # lowered to the plan's ceiling
    db.expire_all()
    plan_id = db.get(Workspace, wid).plan_id  # type: ignore[union-attr]
    assert db.get(Plan, plan_id).name == name  # type: ignore[union-attr]
    assert db.get(WorkspaceLimits, wid).max_monitors == 7  # type: ignore[union-attr]
    # changing the plan brings its workspaces along; the operator audit log has each step
    assert main(["plan", "set", name, "max_monitors=5"]) == 0
    assert "1 workspaces had a limit lowered" in capsys.readouterr().out
    db.expire_all()
    assert db.get(WorkspaceLimits, wid).max_monitors == 5  # type: ignore[union-attr]
    events = db.scalars(
        select(OperatorAuditEvent)
        .where(OperatorAuditEvent.target_id.in_([str(plan_id), ws["id"]]))
        .order_by(OperatorAuditEvent.created_at)
    ).all()
    assert [(e.action, e.actor_email) for e in events] == [
        ("plan.create", "vigil-admin"),
        ("workspace.plan_change", "vigil-admin"),
        ("plan.update", "vigil-admin"),
    ]


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["plan", "set", "X", "nope=1"], 2, "'nope=1': expected KEY=VALUE with KEY one of"),
        (["plan", "set", "X", "max_monitors=lots"], 2, "'lots' is not a whole number"),
        (["plan", "set", "X", "max_monitors=-1"], 2, "max_monitors: Input should be"),
        (["plan", "assign", "00000000-0000-4000-8000-000000000000", "nosuch"], 1, "no plan named"),
    ],
)
def test_plan_command_says_what_is_wrong(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: int, message: str
) -> None:
    assert main(argv) == code
    assert message in capsys.readouterr().err
