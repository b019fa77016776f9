"""Health of the whole stack."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.deps import StorageDep
from app.schemas.health import HealthPublic
from app.services import health

router = APIRouter(tags=["health"])


@router.get("/api/health", response_model=HealthPublic)
async def read_health(storage: StorageDep, response: Response) -> HealthPublic:
    """Real checks of postgres, kafka, storage, gateway and consumer (with its lag), in parallel.

    ``status`` is ``ok`` only if every component is; the HTTP status is 200 either way.
    """
    result = await health.collect(health.default_checks(storage))
    response.headers["Cache-Control"] = "no-store"
    return HealthPublic.model_validate(result)
