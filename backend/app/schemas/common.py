"""Shapes shared by every resource."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Message(BaseModel):
    """A plain acknowledgement."""

    message: str


class ErrorPublic(BaseModel):
    """Every error the API itself raises has this shape."""

    detail: str = Field(examples=["Workspace not found"])
    code: str = Field(examples=["not_found"])
    limit: str | None = Field(default=None, description="Set on 429: the limit that was hit")


ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorPublic, "description": "Missing or invalid credentials"},
    403: {"model": ErrorPublic, "description": "Your role or key scope does not allow this"},
    404: {"model": ErrorPublic, "description": "Not found (or not a member of the workspace)"},
}
