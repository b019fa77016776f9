"""Health of the whole stack."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from app.api.deps import BearerDep, SessionDep, StorageDep, has_internal_token, request_credential
from app.core.keys import looks_like_key
from app.schemas.health import HealthPublic
from app.services import health, users

router = APIRouter(tags=["health"])


def _may_see_details(request: Request, db: SessionDep) -> bool:
    """The internal token (the stack's own scripts and tests) or a platform operator's session,
    each only as ``Authorization: Bearer``."""
    if has_internal_token(request):
        return True
    credential = request_credential(request)
    if credential is None or credential.how != "bearer" or looks_like_key(credential.value):
        return False
    resolved = users.resolve_access_token(db, token=credential.value)
    return resolved is not None and resolved[0].is_operator


@router.get("/api/health", response_model=HealthPublic, response_model_exclude_none=True)
async def read_health(
    request: Request, db: SessionDep, storage: StorageDep, response: Response, _: BearerDep
) -> HealthPublic:
    """Up or down: ``{"status": "ok"|"degraded"}``, from checks run at most every 15 s.

    A platform operator's session, or ``Authorization: Bearer <internal token>``, gets real
    checks of postgres, kafka, storage, gateway, consumer (with its lag) and the alerting
    service, run in parallel
    for this request, under ``components``. The HTTP status is 200 either way.
    """
    response.headers["Cache-Control"] = "no-store"
    if await run_in_threadpool(_may_see_details, request, db):
        result = await health.collect(health.default_checks(storage))
        return HealthPublic.model_validate(result)
    status = await health.cached_status(lambda: health.default_checks(storage))
    return HealthPublic.model_validate({"status": status})
