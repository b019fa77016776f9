"""Facts about this installation that the UI shows its users."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import CurrentUser
from app.core.config import settings
from app.schemas.common import ERROR_RESPONSES
from app.schemas.meta import MetaPublic

router = APIRouter(prefix="/meta", tags=["meta"], responses=ERROR_RESPONSES)


@router.get("", response_model=MetaPublic)
def read_meta(_: CurrentUser) -> MetaPublic:
    """The public address of the ingest gateway, for agent set-up instructions."""
    return MetaPublic(gateway_url=settings.PUBLIC_GATEWAY_URL)
