"""Shapes shared by every resource."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, BeforeValidator, Field, StringConstraints
from pydantic_core import PydanticCustomError


def _strip_non_blank(value: object) -> object:
    if isinstance(value, str):
        value = value.strip()
        if not value:
            raise PydanticCustomError("blank", "must not be blank")
    return value


_NOT_BLANK = BeforeValidator(_strip_non_blank)

# A name or title people type (an API key's name, a workspace's name, a dashboard's title…):
# surrounding whitespace is dropped, and nothing left is refused with 422
# ``body.<field>: must not be blank``. The maximum length, counted after stripping, is part of
# the type (pydantic words a ``Field(max_length=…)`` on an optional field of it badly).

#: A name of at most 64 characters, not blank.
Name64 = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64), _NOT_BLANK
]
#: A name or title of at most 100 characters, not blank.
Name100 = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100), _NOT_BLANK
]
#: A name or title of at most 200 characters, not blank.
Name200 = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200), _NOT_BLANK
]


class Message(BaseModel):
    """A plain acknowledgement."""

    message: str


class ErrorPublic(BaseModel):
    """Every error the API itself raises has this shape."""

    detail: str = Field(examples=["Workspace not found"])
    code: str = Field(examples=["not_found"])
    limit: str | None = Field(default=None, description="Set on 429: the limit that was hit")


class FieldErrorPublic(BaseModel):
    loc: list[str | int]
    msg: str
    type: str


class ValidationErrorPublic(BaseModel):
    """A 422: every field that was refused. ``code`` is ``validation_error``, or
    ``plan_ceiling`` for limits beyond the plan's bounds (``limit`` names the first)."""

    detail: str = Field(examples=["ingest_burst: 300,000 is above the ceiling of the plan …"])
    code: str = Field(examples=["plan_ceiling"])
    limit: str | None = None
    errors: list[FieldErrorPublic]


ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorPublic, "description": "Missing or invalid credentials"},
    403: {"model": ErrorPublic, "description": "Your role or key scope does not allow this"},
    404: {"model": ErrorPublic, "description": "Not found (or not a member of the workspace)"},
}
