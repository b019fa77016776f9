"""Sign up (by email), sign in, refresh, sign out, sessions, password change and reset, the
account's security log, who am I."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query, status

from app.api.deps import CurrentSessionDep, CurrentUser, RequestActorDep, SessionDep
from app.core.config import settings
from app.schemas.audit import AuditEventPublic, AuditEventsPublic
from app.schemas.auth import (
    EmailLink,
    EmailLinkPublic,
    EmailSent,
    LoginRequest,
    LogoutRequest,
    PasswordChange,
    PasswordResetComplete,
    PasswordResetRequest,
    RefreshRequest,
    SessionPublic,
    SessionsEnded,
    SessionsPublic,
    SignupComplete,
    SignupRequest,
    TokenPublic,
)
from app.schemas.common import ErrorPublic, Message
from app.schemas.user import UserPublic, UserUpdate
from app.services import audit, users
from app.services.users import IssuedTokens

router = APIRouter(prefix="/auth", tags=["auth"])

EMAIL_SENT = (
    "Check your inbox: if {email} can receive mail, a link to {what} is on its way. "
    "It works once, within {valid}."
)
LINK_ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": ErrorPublic, "description": "Link invalid, used or expired (code link_*)"},
}
EMAIL_ERRORS: dict[int | str, dict[str, object]] = {
    429: {"model": ErrorPublic, "description": "Too many requests from this client"},
    503: {"model": ErrorPublic, "description": "No SMTP server is configured"},
}


def _token(tokens: IssuedTokens) -> TokenPublic:
    return TokenPublic(
        access_token=tokens.access_token,
        expires_in=tokens.expires_in,
        refresh_token=tokens.refresh_token,
        user=UserPublic.model_validate(tokens.user),
    )


@router.post(
    "/signup",
    response_model=EmailSent,
    status_code=status.HTTP_202_ACCEPTED,
    responses=EMAIL_ERRORS,
)
def signup(body: SignupRequest, db: SessionDep, actor: RequestActorDep) -> EmailSent:
    """Start creating an account: a link to finish it is emailed to the address (an address
    that has an account gets an email saying so instead). The answer is the same either way."""
    users.request_signup(db, email=body.email, actor=actor)
    hours = settings.SIGNUP_TOKEN_EXPIRE_HOURS
    return EmailSent(
        message=EMAIL_SENT.format(
            email=body.email.strip().lower(),
            what="finish creating your account",
            valid=f"{hours} hours" if hours != 1 else "1 hour",
        )
    )


@router.post("/signup/pending", response_model=EmailLinkPublic, responses=LINK_ERRORS)
def read_pending_signup(body: EmailLink, db: SessionDep) -> EmailLinkPublic:
    """The address a sign-up link was sent to, before choosing the password."""
    row = users.pending_signup(db, token=body.token)
    return EmailLinkPublic(email=row.email, expires_at=row.expires_at)


@router.post(
    "/signup/complete",
    response_model=TokenPublic,
    status_code=status.HTTP_201_CREATED,
    responses={
        **LINK_ERRORS,
        409: {"model": ErrorPublic, "description": "The address has an account already"},
        503: {"model": ErrorPublic, "description": "Too many password checks at once"},
    },
)
async def complete_signup(
    body: SignupComplete, db: SessionDep, actor: RequestActorDep
) -> TokenPublic:
    """Finish creating the account from the emailed link: choose the password (and a name).
    The address is then verified, and the answer signs in."""
    tokens = await users.complete_signup(
        db, token=body.token, password=body.password, full_name=body.full_name, actor=actor
    )
    return _token(tokens)


@router.post(
    "/login",
    response_model=TokenPublic,
    responses={
        401: {"model": ErrorPublic, "description": "Incorrect email or password"},
        429: {"model": ErrorPublic, "description": "Wait before the next try (names the limit)"},
        503: {"model": ErrorPublic, "description": "Too many password checks at once"},
    },
)
async def login(body: LoginRequest, db: SessionDep, actor: RequestActorDep) -> TokenPublic:
    """Exchange email and password for an access token and a refresh token."""
    return _token(await users.login(db, email=body.email, password=body.password, actor=actor))


@router.post(
    "/refresh",
    response_model=TokenPublic,
    responses={
        401: {
            "model": ErrorPublic,
            "description": "Refresh token invalid or revoked; refresh_reused: it was spent "
            "already, and its session has been ended",
        }
    },
)
def refresh(body: RefreshRequest, db: SessionDep, actor: RequestActorDep) -> TokenPublic:
    """Exchange a refresh token for a new access token; the refresh token is rotated, and an
    old one presented again ends the whole session."""
    return _token(users.refresh(db, refresh_token=body.refresh_token, actor=actor))


@router.post("/logout", response_model=Message)
def logout(
    db: SessionDep, current: CurrentSessionDep, body: LogoutRequest | None = None
) -> Message:
    """Revoke this session (or every session of the account)."""
    all_sessions = body.all_sessions if body else False
    users.logout(
        db,
        user=current.user,
        session_id=current.session_id,
        all_sessions=all_sessions,
        actor=current.actor,
    )
    return Message(message="Logged out")


@router.get("/sessions", response_model=SessionsPublic)
def read_sessions(db: SessionDep, current: CurrentSessionDep) -> SessionsPublic:
    """The account's open sessions (browsers and devices signed in), the latest active first."""
    data = [
        SessionPublic(
            id=s.id,
            created_at=s.created_at,
            last_active_at=s.last_refreshed_at or s.created_at,
            expires_at=s.expires_at,
            ip=s.ip,
            user_agent=s.user_agent,
            current=s.id == current.session_id,
        )
        for s in users.list_sessions(db, user_id=current.user.id)
    ]
    return SessionsPublic(data=data, count=len(data))


@router.delete(
    "/sessions/{session_id}",
    response_model=Message,
    responses={404: {"model": ErrorPublic, "description": "No open session of yours has it"}},
)
def revoke_session(session_id: uuid.UUID, db: SessionDep, current: CurrentSessionDep) -> Message:
    """Sign out one session of the account (its tokens stop working at once)."""
    users.revoke_session(
        db,
        user=current.user,
        session_id=session_id,
        current=current.session_id,
        actor=current.actor,
    )
    return Message(message="Session ended")


@router.post("/sessions/revoke-others", response_model=SessionsEnded)
def revoke_other_sessions(db: SessionDep, current: CurrentSessionDep) -> SessionsEnded:
    """Sign out every other session of the account; this one stays."""
    ended = users.revoke_other_sessions(
        db, user=current.user, current=current.session_id, actor=current.actor
    )
    return SessionsEnded(message=f"{ended} other session(s) ended", ended=ended)


@router.post(
    "/password",
    response_model=Message,
    responses={
        401: {"model": ErrorPublic, "description": "Current password is incorrect"},
        429: {"model": ErrorPublic, "description": "Wait before the next try"},
    },
)
async def change_password(
    body: PasswordChange, db: SessionDep, current: CurrentSessionDep
) -> Message:
    """Change the password; every other session of the account is revoked."""
    await users.change_password(
        db,
        user=current.user,
        session_id=current.session_id,
        current_password=body.current_password,
        new_password=body.new_password,
        actor=current.actor,
    )
    return Message(message="Password changed")


@router.post(
    "/password-reset",
    response_model=EmailSent,
    status_code=status.HTTP_202_ACCEPTED,
    responses=EMAIL_ERRORS,
)
def request_password_reset(
    body: PasswordResetRequest, db: SessionDep, actor: RequestActorDep
) -> EmailSent:
    """Email a link to choose a new password to the account of this address. The answer is
    the same whether or not the address has an account."""
    users.request_password_reset(db, email=body.email, actor=actor)
    return EmailSent(
        message=EMAIL_SENT.format(
            email=body.email.strip().lower(),
            what="choose a new password",
            valid=f"{settings.PASSWORD_RESET_EXPIRE_MINUTES} minutes",
        )
        + " Nothing is sent to an address without an account."
    )


@router.post("/password-reset/pending", response_model=EmailLinkPublic, responses=LINK_ERRORS)
def read_pending_password_reset(body: EmailLink, db: SessionDep) -> EmailLinkPublic:
    """The account a password-reset link is for, before choosing the new password."""
    row = users.pending_password_reset(db, token=body.token)
    return EmailLinkPublic(email=row.email, expires_at=row.expires_at)


@router.post(
    "/password-reset/complete",
    response_model=TokenPublic,
    responses={
        **LINK_ERRORS,
        503: {"model": ErrorPublic, "description": "Too many password checks at once"},
    },
)
async def complete_password_reset(
    body: PasswordResetComplete, db: SessionDep, actor: RequestActorDep
) -> TokenPublic:
    """Choose a new password from the emailed link: every session of the account ends, and
    the answer signs in."""
    tokens = await users.complete_password_reset(
        db, token=body.token, new_password=body.new_password, actor=actor
    )
    return _token(tokens)


@router.get("/security-log", response_model=AuditEventsPublic)
def read_security_log(
    db: SessionDep,
    user: CurrentUser,
    since: Annotated[datetime | None, Query(description="Events at or after this time")] = None,
    renewals: Annotated[
        bool, Query(description="Include token renewals (one per session every few minutes)")
    ] = True,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> AuditEventsPublic:
    """Your account's security log, newest first: sign-ins (failed ones too), sign-outs,
    token renewals, sessions ended, password changes and resets, profile changes."""
    if since is not None and since.tzinfo is None:
        since = since.replace(tzinfo=UTC)
    rows, count = audit.list_user_events(
        db, user_id=user.id, since=since, renewals=renewals, limit=limit, offset=offset
    )
    return AuditEventsPublic(data=[AuditEventPublic.model_validate(r) for r in rows], count=count)


@router.get("/me", response_model=UserPublic)
def read_me(user: CurrentUser) -> UserPublic:
    """The signed-in user."""
    return UserPublic.model_validate(user)


@router.patch("/me", response_model=UserPublic)
def update_me(body: UserUpdate, db: SessionDep, current: CurrentSessionDep) -> UserPublic:
    """Update the signed-in user's profile."""
    user = current.user
    if "full_name" in body.model_fields_set:
        user = users.update_profile(db, user=user, full_name=body.full_name, actor=current.actor)
    return UserPublic.model_validate(user)
