from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, EmailStr, Field, ValidationInfo, field_validator

from app.core.security import password_weakness
from app.schemas.user import UserPublic

PASSWORD_RULE = (
    "8 to 128 characters, not easy to guess (common passwords, keyboard walks, names, dates "
    "and the account's email are refused)"
)


class SignupRequest(BaseModel):
    email: EmailStr = Field(examples=["ada@example.com"])
    full_name: str | None = Field(default=None, max_length=200, examples=["Ada Lovelace"])
    password: str = Field(
        min_length=8, max_length=128, description=PASSWORD_RULE, examples=["correct horse battery"]
    )

    @field_validator("password")
    @classmethod
    def _strong(cls, password: str, info: ValidationInfo) -> str:
        inputs = [v for v in (info.data.get("email"), info.data.get("full_name")) if v]
        weakness = password_weakness(password, user_inputs=inputs)
        if weakness:
            raise ValueError(weakness)
        return password


class LoginRequest(BaseModel):
    # Not EmailStr: an account's address was validated when it was created; logging in only
    # compares it, so addresses on special-use domains (e.g. ``.local``) still sign in.
    email: str = Field(min_length=1, max_length=320, examples=["ada@example.com"])
    password: str = Field(min_length=1, max_length=128, examples=["correct horse battery"])


class TokenPublic(BaseModel):
    """An access token (JWT, send as ``Authorization: Bearer``) and its refresh token."""

    access_token: str
    token_type: Literal["bearer"] = "bearer"
    expires_in: int = Field(description="Seconds until the access token expires")
    refresh_token: str = Field(description="Opaque; exchange at /auth/refresh; revoked by logout")
    user: UserPublic


class RefreshRequest(BaseModel):
    refresh_token: str = Field(min_length=1, max_length=200)


class LogoutRequest(BaseModel):
    all_sessions: bool = Field(default=False, description="Revoke every session of this user")


class PasswordChange(BaseModel):
    current_password: str = Field(min_length=1, max_length=128)
    new_password: str = Field(min_length=8, max_length=128, description=PASSWORD_RULE)

    @field_validator("new_password")
    @classmethod
    def _strong(cls, password: str) -> str:
        weakness = password_weakness(password)
        if weakness:
            raise ValueError(weakness)
        return password
