from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class ComponentHealth(BaseModel):
    model_config = ConfigDict(extra="allow")

    ok: bool
    latency_ms: float | None = None
    error: str | None = None


class HealthPublic(BaseModel):
    status: Literal["ok", "degraded"]
    components: dict[str, ComponentHealth] | None = Field(
        default=None,
        description="postgres, kafka, storage, gateway, consumer (consumer also has lag); only "
        "for a platform operator's session or the internal token",
    )
