"""``vigil-admin plan``: plans from the command line, as the Operator area manages them.

vigil-admin plan list                               every plan, its workspaces and its bounds
vigil-admin plan set NAME [--default] KEY=VALUE...  create NAME (from the default plan's bounds)
                                                    or change it; lowering a bound lowers the
                                                    limits of the workspaces on it
vigil-admin plan assign WORKSPACE_ID NAME           move a workspace to the plan NAME
"""

from __future__ import annotations

import argparse
import sys
import uuid
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session


def add_parser(sub: Any) -> None:
    plan = sub.add_parser("plan", help="list, create or change plans; move a workspace to one")
    actions = plan.add_subparsers(dest="action", required=True)
    actions.add_parser("list", help="every plan with its workspaces and bounds")
    set_ = actions.add_parser("set", help="create a plan or change its bounds")
    set_.add_argument("name")
    set_.add_argument("--default", action="store_true", help="new workspaces get this plan")
    set_.add_argument("bounds", nargs="*", metavar="KEY=VALUE", help="e.g. max_monitors=50")
    assign = actions.add_parser("assign", help="move a workspace to a plan")
    assign.add_argument("workspace_id", type=uuid.UUID)
    assign.add_argument("name")
    plan.set_defaults(func=cmd_plan)


def _find(db: Session, name: str) -> Any:
    from app.models import Plan

    return db.scalar(select(Plan).where(func.lower(Plan.name) == name.lower()))


def _parse_bounds(pairs: list[str]) -> dict[str, int]:
    from app.services.plans import BOUND_FIELDS

    out: dict[str, int] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key not in BOUND_FIELDS:
            raise ValueError(
                f"{pair!r}: expected KEY=VALUE with KEY one of {', '.join(BOUND_FIELDS)}"
            )
        try:
            out[key] = int(value)
        except ValueError:
            raise ValueError(f"{pair!r}: {value!r} is not a whole number") from None
    return out


def _list(db: Session) -> int:
    from app.services import plans

    for plan, workspaces in plans.list_plans(db):
        mark = " (default)" if plan.is_default else ""
        bounds = " ".join(f"{f}={getattr(plan, f)}" for f in plans.BOUND_FIELDS)
        print(f"{plan.name}{mark}: {workspaces} workspaces; {bounds}")
    return 0


def _set(db: Session, args: argparse.Namespace, actor: Any) -> int:
    from app.schemas.plan import PlanCreate, PlanUpdate
    from app.services import plans

    bounds = _parse_bounds(args.bounds)
    plan = _find(db, args.name)
    if plan is None:
        default = plans.default_plan(db)
        data = {f: getattr(default, f) for f in plans.BOUND_FIELDS} | bounds
        body = PlanCreate(name=args.name, **data).model_dump(exclude_none=True)
        plan = plans.create_plan(db, data=body, actor=actor)
        print(f"plan {plan.name} created")
        bounds = {}
    changes = PlanUpdate(**bounds).model_dump(exclude_unset=True)
    if args.default:
        changes["is_default"] = True
    if changes:
        plan, lowered = plans.update_plan(db, plan_id=plan.id, changes=changes, actor=actor)
        print(f"plan {plan.name} changed; {lowered} workspaces had a limit lowered")
    return 0


def _assign(db: Session, args: argparse.Namespace, actor: Any) -> int:
    from app.services import operators

    plan = _find(db, args.name)
    if plan is None:
        print(f"vigil-admin plan assign: no plan named {args.name!r}", file=sys.stderr)
        return 1
    lowered = operators.change_plan(
        db, workspace_id=args.workspace_id, plan_id=plan.id, actor=actor
    )
    print(f"workspace {args.workspace_id} is on the plan {plan.name}")
    for limit, change in lowered.items():
        print(f"  {limit}: {change['from']} -> {change['to']}")
    return 0


def cmd_plan(args: argparse.Namespace) -> int:
    from app.cli import CLI_ACTOR_AGENT
    from app.core.db import get_sessionmaker
    from app.core.errors import VigilError
    from app.services.audit import Actor

    actor = Actor(None, CLI_ACTOR_AGENT, None, f"vigil-admin plan {args.action}")
    with get_sessionmaker()() as db:
        try:
            if args.action == "list":
                return _list(db)
            if args.action == "set":
                return _set(db, args, actor)
            return _assign(db, args, actor)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError too
            text = (
                "; ".join(f"{e['loc'][0]}: {e['msg']}" for e in exc.errors())
                if isinstance(exc, ValidationError)
                else str(exc)
            )
            print(f"vigil-admin plan {args.action}: {text}", file=sys.stderr)
            return 2
        except VigilError as exc:
            print(f"vigil-admin plan {args.action}: {exc.detail}", file=sys.stderr)
            return 1
