"""Benchmark runs per workspace: the documents ``vigil-bench upload`` sends, stored whole."""

from __future__ import annotations

import uuid

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, defer

from app.core.errors import Conflict, NotFound
from app.models import BenchmarkRun
from app.schemas.benchmark import BenchmarkRunDocument, BenchmarkScenarioOverview
from app.services import audit
from app.services.audit import Actor


def _overview(document: BenchmarkRunDocument) -> list[BenchmarkScenarioOverview]:
    return [
        BenchmarkScenarioOverview(
            scenario=s.scenario,
            title=s.title,
            mode=s.mode,
            valid=s.valid,
            started_at=s.started_at,
            duration_s=s.duration_s,
            systems=s.systems,
            summary=s.summary,
        )
        for s in document.scenarios
    ]


def _systems(document: BenchmarkRunDocument) -> list[str]:
    """Every system that ran in some scenario, in the order they first appear."""
    seen: dict[str, None] = {}
    for s in document.scenarios:
        for system in s.systems:
            if system.available:
                seen.setdefault(system.id, None)
    return list(seen)


def list_runs(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    scenario: str | None = None,
    limit: int = 50,
    offset: int = 0,
) -> tuple[list[BenchmarkRun], int]:
    """Runs newest first, without their documents."""
    query = select(BenchmarkRun).where(BenchmarkRun.workspace_id == workspace_id)
    if scenario:
        query = query.where(BenchmarkRun.scenario_ids.contains([scenario]))
    count = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = db.scalars(
        query.options(defer(BenchmarkRun.document))
        .order_by(BenchmarkRun.started_at.desc(), BenchmarkRun.uploaded_at.desc(), BenchmarkRun.id)
        .limit(limit)
        .offset(offset)
    ).all()
    return list(rows), count


def get_run(db: Session, *, workspace_id: uuid.UUID, benchmark_id: uuid.UUID) -> BenchmarkRun:
    row = db.get(BenchmarkRun, benchmark_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("Benchmark run not found")
    return row


def _duplicate(run_id: str) -> Conflict:
    return Conflict(
        f"Benchmark run {run_id} is already in this workspace; delete it first to replace it",
        code="duplicate_run",
    )


def create_run(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    document: BenchmarkRunDocument,
    actor: Actor,
) -> BenchmarkRun:
    """Store a validated document; a run id already in the workspace is a conflict."""
    exists = db.scalar(
        select(BenchmarkRun.id).where(
            BenchmarkRun.workspace_id == workspace_id, BenchmarkRun.run_id == document.run_id
        )
    )
    if exists is not None:
        raise _duplicate(document.run_id)
    stored = document.model_dump(mode="json")
    modes = {s.mode for s in document.scenarios}
    row = BenchmarkRun(
        workspace_id=workspace_id,
        run_id=document.run_id,
        schema_version=document.schema_version,
        mode=modes.pop() if len(modes) == 1 else "mixed",
        valid=all(s.valid for s in document.scenarios),
        scenario_ids=[s.scenario for s in document.scenarios],
        systems=_systems(document),
        started_at=min(s.started_at for s in document.scenarios),
        created_at=document.created_at,
        command=list(document.command),
        environment=stored["environment"],
        overview=[o.model_dump(mode="json") for o in _overview(document)],
        document=stored,
        size_bytes=len(document.model_dump_json()),
        uploaded_by=actor.user_id,
    )
    db.add(row)
    try:
        db.flush()
    except IntegrityError as exc:  # a concurrent upload of the same run won the race
        db.rollback()
        raise _duplicate(document.run_id) from exc
    audit.record(
        db,
        actor=actor,
        action="benchmark.create",
        workspace_id=workspace_id,
        target_type="benchmark_run",
        target_id=row.id,
        details={"run_id": row.run_id, "scenarios": list(row.scenario_ids)},
    )
    db.commit()
    return row


def delete_run(
    db: Session, *, workspace_id: uuid.UUID, benchmark_id: uuid.UUID, actor: Actor
) -> None:
    row = get_run(db, workspace_id=workspace_id, benchmark_id=benchmark_id)
    db.delete(row)
    audit.record(
        db,
        actor=actor,
        action="benchmark.delete",
        workspace_id=workspace_id,
        target_type="benchmark_run",
        target_id=benchmark_id,
        details={"run_id": row.run_id, "scenarios": list(row.scenario_ids)},
    )
    db.commit()
