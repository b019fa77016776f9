from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, EmailStr, Field

from app.schemas.user import UserPublic


class SignupRequest(BaseModel):
    email: EmailStr = Field(examples=["ada@example.com"])
    password: str = Field(min_length=8, max_length=128, examples=["correct horse battery"])
    full_name: str | None = Field(default=None, max_length=200, examples=["Ada Lovelace"])


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
    new_password: str = Field(min_length=8, max_length=128)
