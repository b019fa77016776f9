from __future__ import annotations

from pydantic import BaseModel, Field


class MetaPublic(BaseModel):
    """What the UI needs to know about this installation."""

    gateway_url: str | None = Field(
        description=(
            "Where agents send data (the ingest gateway), as set by VIGIL_PUBLIC_GATEWAY_URL; "
            "null when not set (the UI then assumes the host it was opened at, port 8001)"
        ),
        examples=["https://ingest.example.com"],
    )
