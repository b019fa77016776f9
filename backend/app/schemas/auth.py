from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, EmailStr, Field

from app.schemas.user import UserPublic

PASSWORD_RULE = (
    "8 to 128 characters, not easy to guess (common passwords, keyboard walks, names, dates "
    "and the account's email are refused)"
)


class SignupRequest(BaseModel):
    """Step 1 of signing up: the address, which gets a link to finish (step 2)."""

    email: EmailStr = Field(examples=["ada@example.com"])


class EmailSent(BaseModel):
    """The same answer whether or not the address has an account."""

    message: str = Field(
        examples=["If the address can receive mail, a link is on its way; it works once."]
    )


class EmailLink(BaseModel):
    """The token of a link sent by email (after ``#token=`` in the link)."""

    token: str = Field(min_length=1, max_length=200)


class EmailLinkPublic(BaseModel):
    """What a link sent by email is for: the address it was sent to, and until when it works."""

    email: str
    expires_at: datetime


class SignupComplete(BaseModel):
    """Step 2 of signing up, from the link sent to the address: choose the password."""

    token: str = Field(min_length=1, max_length=200, description="From the link's #token=")
    full_name: str | None = Field(default=None, max_length=200, examples=["Ada Lovelace"])
    password: str = Field(
        min_length=8, max_length=128, description=PASSWORD_RULE, examples=["correct horse battery"]
    )


class PasswordResetRequest(BaseModel):
    email: str = Field(min_length=1, max_length=320, examples=["ada@example.com"])


class PasswordResetComplete(BaseModel):
    token: str = Field(min_length=1, max_length=200, description="From the link's #token=")
    new_password: str = Field(min_length=8, max_length=128, description=PASSWORD_RULE)


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


class SessionPublic(BaseModel):
    """An open session of the signed-in account: a sign-in on some browser or device."""

    id: uuid.UUID
    created_at: datetime = Field(description="When it signed in")
    last_active_at: datetime = Field(description="Its sign-in or last token renewal")
    expires_at: datetime
    ip: str | None
    user_agent: str | None
    current: bool = Field(description="The session making this request")


class SessionsPublic(BaseModel):
    data: list[SessionPublic]
    count: int


class SessionsEnded(BaseModel):
    message: str
    ended: int = Field(description="How many sessions ended")
