"""Benchmark runs: upload a ``vigil-bench`` result document, list, read, export, delete."""

from __future__ import annotations

import re
import uuid
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response, status

from app.api.deps import SessionDep, WorkspaceContext, WorkspaceDep
from app.benchmark_report import to_csv, to_markdown
from app.core.permissions import Permission
from app.models import BenchmarkRun
from app.schemas.benchmark import (
    BenchmarkEnvironment,
    BenchmarkRunDocument,
    BenchmarkRunPublic,
    BenchmarkRunsPublic,
    BenchmarkRunSummary,
    BenchmarkScenarioOverview,
)
from app.schemas.common import ERROR_RESPONSES, ErrorPublic, Message
from app.services import benchmarks

router = APIRouter(
    prefix="/workspaces/{workspace_id}/benchmarks", tags=["benchmarks"], responses=ERROR_RESPONSES
)

Readers = Annotated[WorkspaceContext, WorkspaceDep(Permission.BENCHMARKS_READ)]
Writers = Annotated[WorkspaceContext, WorkspaceDep(Permission.BENCHMARKS_WRITE)]


def _summary(row: BenchmarkRun) -> BenchmarkRunSummary:
    return BenchmarkRunSummary(
        id=row.id,
        workspace_id=row.workspace_id,
        run_id=row.run_id,
        schema_version=row.schema_version,
        mode=row.mode,
        valid=row.valid,
        started_at=row.started_at,
        created_at=row.created_at,
        uploaded_at=row.uploaded_at,
        uploaded_by=row.uploaded_by,
        size_bytes=row.size_bytes,
        systems=list(row.systems),
        command=list(row.command),
        environment=BenchmarkEnvironment.model_validate(row.environment),
        scenarios=[BenchmarkScenarioOverview.model_validate(o) for o in row.overview],
    )


def _public(row: BenchmarkRun) -> BenchmarkRunPublic:
    return BenchmarkRunPublic(
        **_summary(row).model_dump(),
        document=BenchmarkRunDocument.model_validate(row.document),
    )


@router.get("", response_model=BenchmarkRunsPublic)
def read_benchmark_runs(
    db: SessionDep,
    ws: Readers,
    scenario: Annotated[
        str | None,
        Query(max_length=64, examples=["write-cost"], description="Only runs with this scenario"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> BenchmarkRunsPublic:
    """The workspace's benchmark runs, newest first, without measurements and samples."""
    rows, count = benchmarks.list_runs(
        db, workspace_id=ws.id, scenario=scenario, limit=limit, offset=offset
    )
    return BenchmarkRunsPublic(data=[_summary(r) for r in rows], count=count)


@router.post(
    "",
    response_model=BenchmarkRunSummary,
    status_code=status.HTTP_201_CREATED,
    responses={
        409: {"model": ErrorPublic, "description": "A run with this run_id is already stored"},
        413: {"model": ErrorPublic, "description": "The document is larger than the body limit"},
    },
)
def create_benchmark_run(
    body: BenchmarkRunDocument, db: SessionDep, ws: Writers
) -> BenchmarkRunSummary:
    """Store a result document as ``vigil-bench upload`` sends it (schema version 1)."""
    row = benchmarks.create_run(db, workspace_id=ws.id, document=body, actor=ws.actor)
    return _summary(row)


@router.get("/{benchmark_id}", response_model=BenchmarkRunPublic)
def read_benchmark_run(benchmark_id: uuid.UUID, db: SessionDep, ws: Readers) -> BenchmarkRunPublic:
    """One run with its whole result document."""
    return _public(benchmarks.get_run(db, workspace_id=ws.id, benchmark_id=benchmark_id))


#: The export formats: media type and file extension.
EXPORT_FORMATS = {"csv": ("text/csv", "csv"), "md": ("text/markdown", "md")}


def _file_name(run_id: str, extension: str) -> str:
    """``<run_id>.<extension>``; characters other than letters, digits, ``._-`` become ``_``."""
    return f"{re.sub(r'[^A-Za-z0-9._-]', '_', run_id)}.{extension}"


@router.get(
    "/{benchmark_id}/export",
    response_class=Response,
    responses={
        200: {
            "description": "The run as CSV (one row per measurement) or as a Markdown report, "
            "the same text ``vigil-bench export`` writes for the document",
            "content": {
                "text/csv": {"schema": {"type": "string"}},
                "text/markdown": {"schema": {"type": "string"}},
            },
        }
    },
)
def export_benchmark_run(
    benchmark_id: uuid.UUID,
    db: SessionDep,
    ws: Readers,
    format: Annotated[
        Literal["csv", "md"],
        Query(description="csv: one row per measurement; md: a Markdown report"),
    ],
) -> Response:
    """One run as CSV or Markdown, as a file to download (``<run_id>.csv`` or ``.md``)."""
    row = benchmarks.get_run(db, workspace_id=ws.id, benchmark_id=benchmark_id)
    document = BenchmarkRunDocument.model_validate(row.document)
    text = to_csv(document) if format == "csv" else to_markdown(document)
    media_type, extension = EXPORT_FORMATS[format]
    return Response(
        content=text,
        media_type=media_type,
        headers={
            "Content-Disposition": f'attachment; filename="{_file_name(row.run_id, extension)}"'
        },
    )


@router.delete("/{benchmark_id}", response_model=Message)
def delete_benchmark_run(benchmark_id: uuid.UUID, db: SessionDep, ws: Writers) -> Message:
    """Delete a run."""
    benchmarks.delete_run(db, workspace_id=ws.id, benchmark_id=benchmark_id, actor=ws.actor)
    return Message(message="Benchmark run deleted")
