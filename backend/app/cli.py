"""``vigil-admin``: operations on the backend's database.

vigil-admin migrate                    apply migrations (alembic upgrade head)
vigil-admin demo --env-file PATH       ensure the demo user, workspace, keys, operator; write PATH
vigil-admin operator grant EMAIL       make an account a platform operator
vigil-admin operator revoke EMAIL      take the operator role away (never from the last one)
vigil-admin operator list              the platform operators
vigil-admin plan list|set|assign       plans and which workspace is on which (app/cli_plans.py)
vigil-admin openapi [--output FILE]    print the OpenAPI document
vigil-admin retention-sweep [--force]  delete points older than each workspace's retention now
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from app import cli_plans

if TYPE_CHECKING:
    from app.models import User

DEMO_EMAIL = "demo@vigil.dev"
DEMO_OPERATOR_EMAIL = "operator@vigil.dev"
DEMO_WORKSPACE_NAME = "Demo"
ENV_KEYS = (
    "VIGIL_DEMO_EMAIL",
    "VIGIL_DEMO_PASSWORD",
    "VIGIL_DEMO_WORKSPACE",
    "VIGIL_DEMO_INGEST_KEY",
    "VIGIL_DEMO_QUERY_KEY",
    "VIGIL_DEMO_OPERATOR_EMAIL",
    "VIGIL_DEMO_OPERATOR_PASSWORD",
)
CLI_ACTOR_AGENT = "vigil-admin"


def read_env_file(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    try:
        text = path.read_text()
    except FileNotFoundError:
        return values
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.partition("=")
        values[name.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return values


def write_env_file(path: Path, values: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "# Written by `vigil-admin demo`; safe to delete (it is recreated).\n" + "".join(
        f"{k}={values[k]}\n" for k in ENV_KEYS
    )
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".demo.env.")
    with os.fdopen(fd, "w") as f:
        f.write(body)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def _ensure_account(
    db: Session, *, email: str, password: str, full_name: str
) -> tuple[User, str, bool]:
    """The account with this email, signing in with ``password`` (created, or given a fresh
    password when it no longer matches); returns it, its password and whether it changed."""
    from app.core import security
    from app.services import users
    from app.services.audit import Actor

    actor = Actor(None, CLI_ACTOR_AGENT, None, "vigil-admin demo")
    user = users.get_by_email(db, email=email)
    if user is None:
        password = password if len(password) >= 8 else secrets.token_urlsafe(12)
        user = users.create_user(
            db, email=email, password=password, full_name=full_name, actor=actor
        )
        db.commit()
        return user, password, True
    if not password or not security.verify_password(password, user.password_hash):
        password = secrets.token_urlsafe(12)
        user.password_hash = security.hash_password(password)
        db.commit()
        return user, password, True
    return user, password, False


def ensure_demo(db: Session, env_file: Path) -> tuple[dict[str, str], bool]:
    """Make the demo account, workspace, keys and operator exist; return the values and
    whether they changed.

    Idempotent: when the file's users, passwords, workspace and keys all still resolve, nothing
    is touched. Otherwise what is missing is created (a fresh password if it no longer matches).
    """
    from app.models import KeyScope, Membership, Role
    from app.services import api_keys, operators, workspaces
    from app.services.audit import Actor

    current = read_env_file(env_file)
    email = current.get("VIGIL_DEMO_EMAIL") or DEMO_EMAIL
    user, password, changed = _ensure_account(
        db, email=email, password=current.get("VIGIL_DEMO_PASSWORD") or "", full_name="Demo"
    )
    operator, operator_password, operator_changed = _ensure_account(
        db,
        email=current.get("VIGIL_DEMO_OPERATOR_EMAIL") or DEMO_OPERATOR_EMAIL,
        password=current.get("VIGIL_DEMO_OPERATOR_PASSWORD") or "",
        full_name="Platform operator",
    )
    changed = changed or operator_changed
    if not operator.is_operator:
        operators.grant(
            db, email=operator.email, actor=Actor(None, CLI_ACTOR_AGENT, None, "vigil-admin demo")
        )
        changed = True

    workspace = None
    workspace_id = current.get("VIGIL_DEMO_WORKSPACE")
    if workspace_id:
        import uuid

        try:
            candidate = workspaces.get_active(db, workspace_id=uuid.UUID(workspace_id))
        except ValueError:
            candidate = None
        if candidate is not None and db.get(Membership, (candidate.id, user.id)) is not None:
            workspace = candidate
    if workspace is None:
        owned = [w for w, r in workspaces.list_for_user(db, user_id=user.id) if r == Role.owner]
        named = [w for w in owned if w.name == DEMO_WORKSPACE_NAME]
        workspace = named[0] if named else None
    if workspace is None:
        actor = Actor(user.id, user.email, None, "vigil-admin demo")
        workspace = workspaces.create_workspace(
            db, name=DEMO_WORKSPACE_NAME, owner=user, actor=actor
        )
        changed = True

    from app.services import dashboards
    from app.services.builtin_dashboards import host_overview, vigil_itself

    dashboards.refresh_shipped(db, workspace_id=workspace.id, data=host_overview())
    # the demo agent scrapes the services' /metrics into this workspace (infra/up.sh)
    dashboards.ensure_shipped(db, workspace_id=workspace.id, data=vigil_itself(), user_id=user.id)
    db.commit()

    keys = {}
    for scope, name in (
        (KeyScope.ingest, "VIGIL_DEMO_INGEST_KEY"),
        (KeyScope.query, "VIGIL_DEMO_QUERY_KEY"),
    ):
        key = current.get(name, "")
        row = api_keys.resolve(db, key=key) if key else None
        if row is None or row.workspace_id != workspace.id or row.scope != scope:
            _, key = api_keys.create_key(
                db,
                workspace_id=workspace.id,
                name=f"demo {scope}",
                scope=scope,
                actor=Actor(user.id, user.email, None, "vigil-admin demo"),
            )
            changed = True
        keys[name] = key

    values = {
        "VIGIL_DEMO_EMAIL": user.email,
        "VIGIL_DEMO_PASSWORD": password,
        "VIGIL_DEMO_WORKSPACE": str(workspace.id),
        **keys,
        "VIGIL_DEMO_OPERATOR_EMAIL": operator.email,
        "VIGIL_DEMO_OPERATOR_PASSWORD": operator_password,
    }
    if changed or any(current.get(k) != v for k, v in values.items()):
        write_env_file(env_file, values)
    return values, changed


def cmd_migrate(_: argparse.Namespace) -> int:
    from app import migrations

    migrations.upgrade()
    print("database is at the latest revision")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from app.core.db import get_sessionmaker

    with get_sessionmaker()() as db:
        values, changed = ensure_demo(db, Path(args.env_file))
    state = "created/updated" if changed else "unchanged"
    print(
        f"demo {state}: {values['VIGIL_DEMO_EMAIL']} workspace {values['VIGIL_DEMO_WORKSPACE']}, "
        f"operator {values['VIGIL_DEMO_OPERATOR_EMAIL']}"
    )
    print(f"wrote {args.env_file}")
    return 0


def cmd_operator(args: argparse.Namespace) -> int:
    from app.core.db import get_sessionmaker
    from app.core.errors import VigilError
    from app.services import operators
    from app.services.audit import Actor

    actor = Actor(None, CLI_ACTOR_AGENT, None, f"vigil-admin operator {args.action}")
    with get_sessionmaker()() as db:
        try:
            if args.action == "list":
                for user in operators.list_operators(db):
                    print(user.email)
                return 0
            if not args.email:
                print(f"vigil-admin operator {args.action}: an EMAIL is needed", file=sys.stderr)
                return 2
            if args.action == "grant":
                user = operators.grant(db, email=args.email, actor=actor)
                print(f"{user.email} is a platform operator")
            else:
                user = operators.revoke(db, email=args.email, actor=actor)
                print(f"{user.email} is not a platform operator")
        except VigilError as exc:
            print(f"vigil-admin operator {args.action}: {exc.detail}", file=sys.stderr)
            return 1
    return 0


def cmd_openapi(args: argparse.Namespace) -> int:
    from app.main import app

    text = json.dumps(app.openapi(), indent=2, sort_keys=False) + "\n"
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_retention_sweep(args: argparse.Namespace) -> int:
    from datetime import timedelta

    from app.clients.storage import StorageClient
    from app.core.config import settings
    from app.services import retention

    storage = StorageClient(base_url=settings.STORAGE_URL, internal_token=settings.INTERNAL_TOKEN)
    try:
        done = retention.sweep(storage, interval=timedelta(0) if args.force else None)
    finally:
        storage.close()
    if done is None:
        print("another process is sweeping; nothing done", file=sys.stderr)
        return 1
    for s in done:
        what = (
            f"error: {s.error}"
            if s.error
            else f"{s.series} series rewritten, {s.kept_points} points kept"
        )
        print(f"{s.workspace_id} before {s.cutoff.isoformat()}: {what}")
    print(f"{len(done)} workspaces swept")
    return 1 if any(s.error for s in done) else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="vigil-admin", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="apply database migrations").set_defaults(func=cmd_migrate)
    demo = sub.add_parser("demo", help="ensure the demo user, workspace and keys")
    demo.add_argument("--env-file", required=True, help="where to write VIGIL_DEMO_* variables")
    demo.set_defaults(func=cmd_demo)
    operator = sub.add_parser("operator", help="grant, revoke or list platform operators")
    operator.add_argument("action", choices=("grant", "revoke", "list"))
    operator.add_argument("email", nargs="?", help="the account's email (grant, revoke)")
    operator.set_defaults(func=cmd_operator)
    cli_plans.add_parser(sub)
    openapi = sub.add_parser("openapi", help="print the OpenAPI document")
    openapi.add_argument("--output", "-o", help="write to this file instead of stdout")
    openapi.set_defaults(func=cmd_openapi)
    sweep = sub.add_parser(
        "retention-sweep", help="delete each workspace's points older than its retention now"
    )
    sweep.add_argument(
        "--force", action="store_true", help="also workspaces swept within the sweep interval"
    )
    sweep.set_defaults(func=cmd_retention_sweep)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
