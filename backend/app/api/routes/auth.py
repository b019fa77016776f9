"""Sign up, log in, refresh, log out, change password, who am I."""

from __future__ import annotations

from fastapi import APIRouter, status

from app.api.deps import CurrentSessionDep, CurrentUser, RequestActorDep, SessionDep
from app.schemas.auth import (
    LoginRequest,
    LogoutRequest,
    PasswordChange,
    RefreshRequest,
    SignupRequest,
    TokenPublic,
)
from app.schemas.common import ErrorPublic, Message
from app.schemas.user import UserPublic, UserUpdate
from app.services import users
from app.services.users import IssuedTokens

router = APIRouter(prefix="/auth", tags=["auth"])


def _token(tokens: IssuedTokens) -> TokenPublic:
    return TokenPublic(
        access_token=tokens.access_token,
        expires_in=tokens.expires_in,
        refresh_token=tokens.refresh_token,
        user=UserPublic.model_validate(tokens.user),
    )


@router.post(
    "/signup",
    response_model=TokenPublic,
    status_code=status.HTTP_201_CREATED,
    responses={409: {"model": ErrorPublic, "description": "Email already registered"}},
)
def signup(body: SignupRequest, db: SessionDep, actor: RequestActorDep) -> TokenPublic:
    """Create an account and sign in."""
    tokens = users.signup(
        db, email=body.email, password=body.password, full_name=body.full_name, actor=actor
    )
    return _token(tokens)


@router.post(
    "/login",
    response_model=TokenPublic,
    responses={
        401: {"model": ErrorPublic, "description": "Incorrect email or password"},
        429: {"model": ErrorPublic, "description": "Too many failed logins (names the limit)"},
    },
)
def login(body: LoginRequest, db: SessionDep, actor: RequestActorDep) -> TokenPublic:
    """Exchange email and password for an access token and a refresh token."""
    return _token(users.login(db, email=body.email, password=body.password, actor=actor))


@router.post(
    "/refresh",
    response_model=TokenPublic,
    responses={401: {"model": ErrorPublic, "description": "Refresh token invalid or revoked"}},
)
def refresh(body: RefreshRequest, db: SessionDep, actor: RequestActorDep) -> TokenPublic:
    """Exchange a refresh token for a new access token; the refresh token is rotated."""
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


@router.post(
    "/password",
    response_model=Message,
    responses={401: {"model": ErrorPublic, "description": "Current password is incorrect"}},
)
def change_password(body: PasswordChange, db: SessionDep, current: CurrentSessionDep) -> Message:
    """Change the password; every other session of the account is revoked."""
    users.change_password(
        db,
        user=current.user,
        session_id=current.session_id,
        current_password=body.current_password,
        new_password=body.new_password,
        actor=current.actor,
    )
    return Message(message="Password changed")


@router.get("/me", response_model=UserPublic)
def read_me(user: CurrentUser) -> UserPublic:
    """The signed-in user."""
    return UserPublic.model_validate(user)


@router.patch("/me", response_model=UserPublic)
def update_me(body: UserUpdate, user: CurrentUser, db: SessionDep) -> UserPublic:
    """Update the signed-in user's profile."""
    if "full_name" in body.model_fields_set:
        user.full_name = body.full_name
        db.commit()
    return UserPublic.model_validate(user)
