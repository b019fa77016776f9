"""Accounts, sessions, and login throttling."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core import security
from app.core.config import settings
from app.core.errors import Conflict, LimitExceeded, Unauthorized
from app.models import LoginAttempt, User, UserSession
from app.services import audit
from app.services.audit import Actor


@dataclass(frozen=True)
class IssuedTokens:
    user: User
    access_token: str
    expires_in: int
    refresh_token: str


def normalize_email(email: str) -> str:
    return email.strip().lower()


def get_by_email(db: Session, *, email: str) -> User | None:
    return db.scalar(select(User).where(func.lower(User.email) == normalize_email(email)))


def create_user(
    db: Session, *, email: str, password: str, full_name: str | None, actor: Actor
) -> User:
    if get_by_email(db, email=email) is not None:
        raise Conflict("An account with this email already exists", code="email_taken")
    user = User(
        email=normalize_email(email),
        full_name=full_name,
        password_hash=security.hash_password(password),
    )
    db.add(user)
    try:
        db.flush()
    except IntegrityError as exc:
        db.rollback()
        raise Conflict("An account with this email already exists", code="email_taken") from exc
    audit.record(
        db,
        actor=Actor(user.id, user.email, actor.ip, actor.user_agent),
        action="user.signup",
        target_type="user",
        target_id=user.id,
    )
    return user


def _check_throttle(db: Session, *, email: str, ip: str) -> None:
    since = datetime.now(UTC) - timedelta(seconds=settings.LOGIN_WINDOW_SECONDS)
    window = settings.LOGIN_WINDOW_SECONDS
    failures = (
        select(func.count())
        .select_from(LoginAttempt)
        .where(LoginAttempt.created_at >= since, LoginAttempt.succeeded.is_(False))
    )
    # a successful login clears the account's earlier failures
    last_success = (
        select(func.max(LoginAttempt.created_at))
        .where(LoginAttempt.email == email, LoginAttempt.succeeded.is_(True))
        .scalar_subquery()
    )
    per_account = (
        db.scalar(
            failures.where(
                LoginAttempt.email == email,
                LoginAttempt.created_at > func.coalesce(last_success, since),
            )
        )
        or 0
    )
    if per_account >= settings.LOGIN_MAX_FAILURES_PER_ACCOUNT:
        raise LimitExceeded(
            f"Too many failed logins for this account: at most "
            f"{settings.LOGIN_MAX_FAILURES_PER_ACCOUNT} per {window} s; try again later",
            limit="login_failures_per_account",
            retry_after=window,
        )
    per_address = db.scalar(failures.where(LoginAttempt.ip == ip)) or 0
    if per_address >= settings.LOGIN_MAX_FAILURES_PER_ADDRESS:
        raise LimitExceeded(
            f"Too many failed logins from your address: at most "
            f"{settings.LOGIN_MAX_FAILURES_PER_ADDRESS} per {window} s; try again later",
            limit="login_failures_per_address",
            retry_after=window,
        )


def login(db: Session, *, email: str, password: str, actor: Actor) -> IssuedTokens:
    """Check the password (throttled per account and per address) and open a session."""
    email = normalize_email(email)
    ip = actor.ip or "unknown"
    _check_throttle(db, email=email, ip=ip)
    user = get_by_email(db, email=email)
    ok = security.verify_password(password, user.password_hash if user else None)
    ok = ok and user is not None and user.is_active
    db.add(LoginAttempt(email=email, ip=ip, succeeded=ok))
    if not ok or user is None:
        audit.record(
            db,
            actor=Actor(user.id if user else None, email, actor.ip, actor.user_agent),
            action="user.login_failed",
            target_type="user",
            target_id=user.id if user else None,
        )
        db.commit()
        raise Unauthorized("Incorrect email or password", code="invalid_credentials")
    tokens = _open_session(db, user=user, actor=actor)
    audit.record(
        db,
        actor=Actor(user.id, user.email, actor.ip, actor.user_agent),
        action="user.login",
        target_type="user",
        target_id=user.id,
    )
    db.commit()
    return tokens


def _open_session(db: Session, *, user: User, actor: Actor) -> IssuedTokens:
    refresh_token = security.new_refresh_token()
    session = UserSession(
        user_id=user.id,
        refresh_token_hash=security.sha256_hex(refresh_token),
        expires_at=datetime.now(UTC) + timedelta(days=settings.REFRESH_TOKEN_EXPIRE_DAYS),
        ip=actor.ip,
        user_agent=(actor.user_agent or "")[:400] or None,
    )
    db.add(session)
    db.flush()
    access_token, expires_in = security.create_access_token(user_id=user.id, session_id=session.id)
    return IssuedTokens(user, access_token, expires_in, refresh_token)


def signup(
    db: Session, *, email: str, password: str, full_name: str | None, actor: Actor
) -> IssuedTokens:
    user = create_user(db, email=email, password=password, full_name=full_name, actor=actor)
    tokens = _open_session(db, user=user, actor=actor)
    db.commit()
    return tokens


def refresh(db: Session, *, refresh_token: str, actor: Actor) -> IssuedTokens:
    """Rotate: the presented refresh token is spent and a new one issued for the same session."""
    now = datetime.now(UTC)
    session = db.scalar(
        select(UserSession)
        .where(UserSession.refresh_token_hash == security.sha256_hex(refresh_token))
        .with_for_update()
    )
    if session is None or session.revoked_at is not None or session.expires_at <= now:
        raise Unauthorized("Refresh token is invalid, expired or revoked", code="invalid_refresh")
    user = db.get(User, session.user_id)
    if user is None or not user.is_active:
        raise Unauthorized("Refresh token is invalid, expired or revoked", code="invalid_refresh")
    new_refresh = security.new_refresh_token()
    session.refresh_token_hash = security.sha256_hex(new_refresh)
    session.last_refreshed_at = now
    access_token, expires_in = security.create_access_token(user_id=user.id, session_id=session.id)
    db.commit()
    return IssuedTokens(user, access_token, expires_in, new_refresh)


def resolve_access_token(db: Session, *, token: str) -> tuple[User, uuid.UUID] | None:
    """The user and session behind a valid access token whose session is still open."""
    payload = security.decode_access_token(token)
    if payload is None:
        return None
    try:
        user_id = uuid.UUID(payload["sub"])
        session_id = uuid.UUID(payload.get("sid", ""))
    except (ValueError, TypeError):
        return None
    now = datetime.now(UTC)
    session = db.get(UserSession, session_id)
    if (
        session is None
        or session.user_id != user_id
        or session.revoked_at is not None
        or session.expires_at <= now
    ):
        return None
    user = db.get(User, user_id)
    if user is None or not user.is_active:
        return None
    return user, session_id


def logout(
    db: Session, *, user: User, session_id: uuid.UUID, all_sessions: bool, actor: Actor
) -> None:
    now = datetime.now(UTC)
    stmt = update(UserSession).where(
        UserSession.user_id == user.id, UserSession.revoked_at.is_(None)
    )
    if not all_sessions:
        stmt = stmt.where(UserSession.id == session_id)
    db.execute(stmt.values(revoked_at=now))
    audit.record(
        db,
        actor=actor,
        action="user.logout_all" if all_sessions else "user.logout",
        target_type="user",
        target_id=user.id,
    )
    db.commit()


def change_password(
    db: Session,
    *,
    user: User,
    session_id: uuid.UUID,
    current_password: str,
    new_password: str,
    actor: Actor,
) -> None:
    """Change the password and revoke every other session of the user."""
    if not security.verify_password(current_password, user.password_hash):
        audit.record(
            db,
            actor=actor,
            action="user.password_change_failed",
            target_type="user",
            target_id=user.id,
        )
        db.commit()
        raise Unauthorized("Current password is incorrect", code="invalid_credentials")
    now = datetime.now(UTC)
    user.password_hash = security.hash_password(new_password)
    user.password_changed_at = now
    db.execute(
        update(UserSession)
        .where(
            UserSession.user_id == user.id,
            UserSession.id != session_id,
            UserSession.revoked_at.is_(None),
        )
        .values(revoked_at=now)
    )
    audit.record(
        db, actor=actor, action="user.password_changed", target_type="user", target_id=user.id
    )
    db.commit()
