"""Accounts and sessions: sign-up and password reset by email, sign-in with backoff, refresh
tokens with reuse detection, the sessions of an account.

Password work (argon2id, zxcvbn) never runs here on the caller's thread: the ``async``
functions hand it to ``app.core.password_work`` and do their database steps on the request
pool in between, so a burst of sign-ins waits for the password threads without holding the
threads every other request needs.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.clients import smtp
from app.core import password_work, security
from app.core.config import settings
from app.core.errors import (
    BadRequest,
    Busy,
    Conflict,
    FieldInvalid,
    LimitExceeded,
    NotFound,
    Unauthorized,
)
from app.models import EmailToken, LoginAttempt, SpentRefreshToken, User, UserSession
from app.services import account_emails, audit, throttle
from app.services.audit import Actor
from app.services.throttle import Backoff

T = TypeVar("T")


@dataclass(frozen=True)
class IssuedTokens:
    user: User
    access_token: str
    expires_in: int
    refresh_token: str
    session_id: uuid.UUID


def normalize_email(email: str) -> str:
    return email.strip().lower()


def get_by_email(db: Session, *, email: str) -> User | None:
    return db.scalar(select(User).where(func.lower(User.email) == normalize_email(email)))


def create_user(
    db: Session,
    *,
    email: str,
    full_name: str | None,
    actor: Actor,
    password: str | None = None,
    password_hash: str | None = None,
    details: dict[str, Any] | None = None,
) -> User:
    """An account with a verified address: made after the address answered a sign-up link,
    or by an operator (``vigil-admin``). Pass the password, or its argon2id hash."""
    if get_by_email(db, email=email) is not None:
        raise Conflict("An account with this email already exists", code="email_taken")
    if password_hash is None:
        if password is None:
            raise ValueError("create_user needs a password or its hash")
        password_hash = security.hash_password(password)
    user = User(
        email=normalize_email(email),
        full_name=full_name,
        password_hash=password_hash,
        email_verified_at=datetime.now(UTC),
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
        details=details,
    )
    return user


def _released(db: Session, read: Callable[[], T]) -> T:
    """``read()``, then the connection goes back to the pool: the password work that follows
    may wait, and must not hold one meanwhile."""
    result = read()
    db.commit()  # ends the transaction; loaded objects stay readable (expire_on_commit=False)
    return result


def _weakness(password: str, *inputs: str | None) -> str | None:
    return security.password_weakness(password, user_inputs=[i for i in inputs if i])


async def _strong_hash(field: str, password: str, *inputs: str | None) -> str:
    """zxcvbn's verdict (a 422 on ``field`` naming why), then the argon2id hash."""
    weakness = await password_work.run(_weakness, password, *inputs)
    if weakness:
        raise FieldInvalid(field, weakness)
    return await password_work.run(security.hash_password, password)


# --- sign-in throttling ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Limit:
    backoff: Backoff
    name: str
    message: str
    # what a success does: True resets the counter (the account's owner, from this client),
    # False only gives the attempt's place back
    reset_on_success: bool


def _address_key(email: str) -> str:
    """An address as throttle counters name it: its SHA-256, so a key has a fixed length and
    the table keeps no address anyone typed."""
    return security.sha256_hex(email)[:32]


def _login_limits(db: Session, *, email: str, client: str) -> list[_Limit]:
    forget = settings.LOGIN_FORGET_AFTER_SECONDS
    limits = [
        _Limit(
            Backoff(
                f"login:client:{client}",
                settings.LOGIN_FREE_FAILURES_PER_CLIENT,
                settings.LOGIN_MAX_DELAY_SECONDS,
                forget,
            ),
            "login_backoff_client",
            "Too many failed sign-ins from your address",
            False,
        ),
        _Limit(
            Backoff(
                f"login:account-client:{_address_key(email)}|{client}",
                settings.LOGIN_FREE_FAILURES_PER_ACCOUNT_CLIENT,
                settings.LOGIN_MAX_DELAY_SECONDS,
                forget,
            ),
            "login_backoff_account_client",
            "Too many failed sign-ins to this account from your address",
            True,
        ),
    ]
    # Failures from everywhere slow down only clients the account never signed in from: the
    # owner's usual devices are never held back by someone else's guesses.
    since = datetime.now(UTC) - timedelta(days=settings.LOGIN_KNOWN_CLIENT_DAYS)
    known = db.scalar(
        select(LoginAttempt.id)
        .where(
            LoginAttempt.email == email,
            LoginAttempt.ip == client,
            LoginAttempt.succeeded.is_(True),
            LoginAttempt.created_at >= since,
        )
        .limit(1)
    )
    if known is None:
        limits.append(
            _Limit(
                Backoff(
                    f"login:account:{_address_key(email)}",
                    settings.LOGIN_FREE_FAILURES_PER_ACCOUNT,
                    settings.LOGIN_MAX_DELAY_PER_ACCOUNT_SECONDS,
                    forget,
                ),
                "login_backoff_account",
                "Too many failed sign-ins to this account from addresses it never signed in from",
                False,
            )
        )
    return limits


def _reserve(db: Session, limits: list[_Limit]) -> None:
    """Count this attempt under every limit, atomically, or none of them (429)."""
    for limit in limits:
        if throttle.reserve(db, limit.backoff) is None:
            wait = throttle.retry_after(db, limit.backoff)
            db.rollback()
            raise LimitExceeded(
                f"{limit.message}: wait {wait} s before trying again",
                limit=limit.name,
                retry_after=wait,
            )
    db.commit()


def _succeeded(db: Session, limits: list[_Limit]) -> None:
    for limit in limits:
        if limit.reset_on_success:
            throttle.clear(db, limit.backoff.key)
        else:
            throttle.give_back(db, limit.backoff.key)


def _release(db: Session, limits: list[_Limit]) -> None:
    """Give back the places of an attempt that never got to check a password."""
    for limit in limits:
        throttle.give_back(db, limit.backoff.key)
    db.commit()


def _begin_login(db: Session, email: str, client: str) -> tuple[User | None, list[_Limit]]:
    limits = _login_limits(db, email=email, client=client)
    _reserve(db, limits)
    user = get_by_email(db, email=email)
    # hand the connection back while the password is checked (the wait may be long)
    db.commit()
    return user, limits


def _finish_login(
    db: Session,
    *,
    user: User | None,
    ok: bool,
    email: str,
    client: str,
    limits: list[_Limit],
    actor: Actor,
) -> IssuedTokens:
    ok = ok and user is not None and user.is_active
    if not ok or user is None:
        db.add(LoginAttempt(email=email, ip=client, succeeded=False))
        audit.record(
            db,
            actor=Actor(user.id if user else None, email, actor.ip, actor.user_agent),
            action="user.login_failed",
            target_type="user",
            target_id=user.id if user else None,
        )
        db.commit()
        raise Unauthorized("Incorrect email or password", code="invalid_credentials")
    _succeeded(db, limits)
    tokens = _open_session(db, user=user, actor=actor)
    audit.record(
        db,
        actor=Actor(user.id, user.email, actor.ip, actor.user_agent),
        action="user.login",
        target_type="user",
        target_id=user.id,
        details={"session_id": str(tokens.session_id)},
    )
    db.commit()
    return tokens


async def login(db: Session, *, email: str, password: str, actor: Actor) -> IssuedTokens:
    """Check the password and open a session. Throttled by backoff per account and client,
    per client, and per account for unfamiliar clients (429 with Retry-After); the attempt is
    counted before the password is checked, so parallel guesses get no extra tries."""
    email = normalize_email(email)
    client = actor.ip or "unknown"
    user, limits = await run_in_threadpool(_begin_login, db, email, client)
    try:
        ok = await password_work.run(
            security.verify_password, password, user.password_hash if user else None
        )
    except Busy:
        await run_in_threadpool(_release, db, limits)
        raise
    return await run_in_threadpool(
        lambda: _finish_login(
            db, user=user, ok=ok, email=email, client=client, limits=limits, actor=actor
        )
    )


def _open_session(db: Session, *, user: User, actor: Actor) -> IssuedTokens:
    """A new session; its client counts as one the account signs in from."""
    db.add(LoginAttempt(email=user.email, ip=actor.ip or "unknown", succeeded=True))
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
    return IssuedTokens(user, access_token, expires_in, refresh_token, session.id)


# --- sign-up and password reset by email ----------------------------------------------------


def _require_email() -> None:
    if not smtp.is_configured():
        raise Busy(
            "Vigil cannot send email (no SMTP server is configured: VIGIL_SMTP_HOST), so "
            "accounts cannot be created or recovered here; ask the operator",
            code="email_unavailable",
        )


def _count_request(db: Session, *, kind: str, client: str | None, email: str) -> bool:
    """Count a request that sends email: 429 past the client's hourly limit; False (send
    nothing, answer the same) past the address's, so the answer tells nothing about it."""
    wait = throttle.hit(
        db,
        key=f"{kind}:client:{client or 'unknown'}",
        limit=settings.EMAIL_REQUESTS_PER_CLIENT_PER_HOUR,
        window=3600,
    )
    if wait is not None:
        db.rollback()
        raise LimitExceeded(
            f"Too many requests from your address: at most "
            f"{settings.EMAIL_REQUESTS_PER_CLIENT_PER_HOUR} an hour; try again in {wait} s",
            limit=f"{kind}_per_client",
            retry_after=wait,
        )
    over = throttle.hit(
        db,
        key=f"email:{_address_key(email)}",
        limit=settings.EMAILS_PER_ADDRESS_PER_HOUR,
        window=3600,
    )
    return over is None


def _new_email_token(
    db: Session, *, purpose: str, email: str, user: User | None, actor: Actor, lifetime: timedelta
) -> str:
    token = security.new_email_token()
    db.add(
        EmailToken(
            purpose=purpose,
            email=email,
            user_id=user.id if user else None,
            token_hash=security.sha256_hex(token),
            expires_at=datetime.now(UTC) + lifetime,
            ip=actor.ip,
        )
    )
    return token


def request_signup(db: Session, *, email: str, actor: Actor) -> None:
    """Email the address a link to finish creating its account, or, when it has one, an
    email saying so. The caller's answer is the same either way."""
    _require_email()
    email = normalize_email(email)
    if not _count_request(db, kind="signup", client=actor.ip, email=email):
        db.commit()
        return
    user = get_by_email(db, email=email)
    if user is None:
        token = _new_email_token(
            db,
            purpose="signup",
            email=email,
            user=None,
            actor=actor,
            lifetime=timedelta(hours=settings.SIGNUP_TOKEN_EXPIRE_HOURS),
        )
        message = account_emails.signup_link(to=email, token=token)
    else:
        audit.record(
            db,
            actor=Actor(None, email, actor.ip, actor.user_agent),
            action="user.signup_existing",
            target_type="user",
            target_id=user.id,
        )
        message = account_emails.already_registered(to=user.email)
    db.commit()
    account_emails.send_later(message)


def _email_token(db: Session, *, token: str, purpose: str, lock: bool = False) -> EmailToken:
    query = select(EmailToken).where(
        EmailToken.token_hash == security.sha256_hex(token), EmailToken.purpose == purpose
    )
    row = db.scalar(query.with_for_update() if lock else query)
    again = "sign up again" if purpose == "signup" else "ask for a new one"
    if row is None:
        raise BadRequest(
            "This link is not valid: check that you opened all of it, or " + again,
            code="link_invalid",
        )
    if row.used_at is not None:
        raise BadRequest("This link was used already: sign in, or " + again, code="link_used")
    if row.expires_at <= datetime.now(UTC):
        raise BadRequest(f"This link has expired: {again}", code="link_expired")
    return row


def _spend_links(db: Session, *, purpose: str, email: str) -> None:
    """Every unused link of ``purpose`` sent to ``email`` is spent by the first that is used."""
    db.execute(
        update(EmailToken)
        .where(
            EmailToken.purpose == purpose,
            EmailToken.email == email,
            EmailToken.used_at.is_(None),
        )
        .values(used_at=datetime.now(UTC))
    )


def pending_signup(db: Session, *, token: str) -> EmailToken:
    """The sign-up a link would finish (400 when it cannot)."""
    return _email_token(db, token=token, purpose="signup")


def _finish_signup(
    db: Session, *, token: str, password_hash: str, full_name: str | None, actor: Actor
) -> IssuedTokens:
    row = _email_token(db, token=token, purpose="signup", lock=True)
    _spend_links(db, purpose="signup", email=row.email)
    user = create_user(
        db,
        email=row.email,
        full_name=full_name,
        actor=actor,
        password_hash=password_hash,
        details={"verified": "email link"},
    )
    tokens = _open_session(db, user=user, actor=actor)
    db.commit()
    return tokens


async def complete_signup(
    db: Session, *, token: str, password: str, full_name: str | None, actor: Actor
) -> IssuedTokens:
    """Finish a sign-up from its email link: the address is verified, the account made, and
    a session opened."""
    row = await run_in_threadpool(lambda: _released(db, lambda: pending_signup(db, token=token)))
    password_hash = await _strong_hash("password", password, row.email, full_name)
    return await run_in_threadpool(
        lambda: _finish_signup(
            db, token=token, password_hash=password_hash, full_name=full_name, actor=actor
        )
    )


def request_password_reset(db: Session, *, email: str, actor: Actor) -> None:
    """Email the account of ``email`` a link to choose a new password; nothing for an
    address without an account. The caller's answer is the same either way."""
    _require_email()
    email = normalize_email(email)
    if not _count_request(db, kind="password_reset", client=actor.ip, email=email):
        db.commit()
        return
    user = get_by_email(db, email=email)
    if user is None or not user.is_active:
        db.commit()
        return
    token = _new_email_token(
        db,
        purpose="password_reset",
        email=user.email,
        user=user,
        actor=actor,
        lifetime=timedelta(minutes=settings.PASSWORD_RESET_EXPIRE_MINUTES),
    )
    audit.record(
        db,
        actor=Actor(None, email, actor.ip, actor.user_agent),
        action="user.password_reset_requested",
        target_type="user",
        target_id=user.id,
    )
    db.commit()
    account_emails.send_later(account_emails.password_reset_link(to=user.email, token=token))


def pending_password_reset(db: Session, *, token: str) -> EmailToken:
    return _email_token(db, token=token, purpose="password_reset")


def _revoke_sessions(
    db: Session, *, user_id: uuid.UUID, reason: str, keep: uuid.UUID | None = None
) -> int:
    stmt = update(UserSession).where(
        UserSession.user_id == user_id, UserSession.revoked_at.is_(None)
    )
    if keep is not None:
        stmt = stmt.where(UserSession.id != keep)
    result = db.execute(stmt.values(revoked_at=datetime.now(UTC), revoked_reason=reason))
    return int(result.rowcount or 0)  # type: ignore[attr-defined]


def _finish_password_reset(
    db: Session, *, token: str, password_hash: str, actor: Actor
) -> IssuedTokens:
    row = _email_token(db, token=token, purpose="password_reset", lock=True)
    user = db.get(User, row.user_id) if row.user_id else None
    if user is None or not user.is_active:
        raise BadRequest("This link is not valid: ask for a new one", code="link_invalid")
    now = datetime.now(UTC)
    _spend_links(db, purpose="password_reset", email=row.email)
    user.password_hash = password_hash
    user.password_changed_at = now
    ended = _revoke_sessions(db, user_id=user.id, reason="password_reset")
    actor = Actor(user.id, user.email, actor.ip, actor.user_agent)
    audit.record(
        db,
        actor=actor,
        action="user.password_reset",
        target_type="user",
        target_id=user.id,
        details={"sessions_ended": ended},
    )
    tokens = _open_session(db, user=user, actor=actor)
    db.commit()
    account_emails.send_later(account_emails.password_changed(to=user.email))
    return tokens


async def complete_password_reset(
    db: Session, *, token: str, new_password: str, actor: Actor
) -> IssuedTokens:
    """Set a new password from a reset link: every session of the account ends, and a new
    one is opened for whoever holds the link."""
    row = await run_in_threadpool(
        lambda: _released(db, lambda: pending_password_reset(db, token=token))
    )
    user = await run_in_threadpool(
        lambda: _released(db, lambda: db.get(User, row.user_id) if row.user_id else None)
    )
    password_hash = await _strong_hash(
        "new_password", new_password, row.email, user.full_name if user else None
    )
    return await run_in_threadpool(
        lambda: _finish_password_reset(db, token=token, password_hash=password_hash, actor=actor)
    )


# --- refresh tokens ---------------------------------------------------------------------------


INVALID_REFRESH = "Refresh token is invalid, expired or revoked"


def refresh(db: Session, *, refresh_token: str, actor: Actor) -> IssuedTokens:
    """Rotate: the presented refresh token is spent and a new one issued for the same session.

    A spent token that comes back means two parties hold the session's tokens: the session
    (the token family) is revoked at once, so whoever stole it is out along with the owner,
    who signs in again.
    """
    now = datetime.now(UTC)
    token_hash = security.sha256_hex(refresh_token)
    session = db.scalar(
        select(UserSession).where(UserSession.refresh_token_hash == token_hash).with_for_update()
    )
    if session is None:
        spent = db.get(SpentRefreshToken, token_hash)
        family = (
            db.scalar(
                select(UserSession).where(UserSession.id == spent.session_id).with_for_update()
            )
            if spent is not None
            else None
        )
        if family is None or family.revoked_at is not None:
            raise Unauthorized(INVALID_REFRESH, code="invalid_refresh")
        family.revoked_at = now
        family.revoked_reason = "refresh_reuse"
        owner = db.get(User, family.user_id)
        audit.record(
            db,
            actor=Actor(None, owner.email if owner else None, actor.ip, actor.user_agent),
            action="user.refresh_reuse",
            target_type="user",
            target_id=family.user_id,
            details={"session_id": str(family.id)},
        )
        db.commit()
        raise Unauthorized(
            "This refresh token was used before: its session has been ended in case it was "
            "stolen; sign in again",
            code="refresh_reused",
        )
    if session.revoked_at is not None or session.expires_at <= now:
        raise Unauthorized(INVALID_REFRESH, code="invalid_refresh")
    user = db.get(User, session.user_id)
    if user is None or not user.is_active:
        raise Unauthorized(INVALID_REFRESH, code="invalid_refresh")
    db.add(SpentRefreshToken(token_hash=token_hash, session_id=session.id))
    new_refresh = security.new_refresh_token()
    session.refresh_token_hash = security.sha256_hex(new_refresh)
    session.last_refreshed_at = now
    access_token, expires_in = security.create_access_token(user_id=user.id, session_id=session.id)
    audit.record(
        db,
        actor=Actor(user.id, user.email, actor.ip, actor.user_agent),
        action="user.token_refresh",
        target_type="user",
        target_id=user.id,
        details={"session_id": str(session.id)},
    )
    db.commit()
    return IssuedTokens(user, access_token, expires_in, new_refresh, session.id)


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


# --- sessions ---------------------------------------------------------------------------------


def list_sessions(db: Session, *, user_id: uuid.UUID) -> list[UserSession]:
    """The account's open sessions, the most recently active first."""
    return list(
        db.scalars(
            select(UserSession)
            .where(
                UserSession.user_id == user_id,
                UserSession.revoked_at.is_(None),
                UserSession.expires_at > datetime.now(UTC),
            )
            .order_by(
                func.coalesce(UserSession.last_refreshed_at, UserSession.created_at).desc(),
                UserSession.id,
            )
        ).all()
    )


def revoke_session(
    db: Session, *, user: User, session_id: uuid.UUID, current: uuid.UUID, actor: Actor
) -> None:
    """End one open session of the account (this one too, which is signing out)."""
    session = db.scalar(
        select(UserSession)
        .where(
            UserSession.id == session_id,
            UserSession.user_id == user.id,
            UserSession.revoked_at.is_(None),
        )
        .with_for_update()
    )
    if session is None:
        raise NotFound("Session not found (it may have ended already)")
    session.revoked_at = datetime.now(UTC)
    session.revoked_reason = "logout" if session_id == current else "signed_out"
    audit.record(
        db,
        actor=actor,
        action="user.session_revoke",
        target_type="user",
        target_id=user.id,
        details={"session_id": str(session_id)},
    )
    db.commit()


def revoke_other_sessions(db: Session, *, user: User, current: uuid.UUID, actor: Actor) -> int:
    """End every open session of the account but ``current``; how many ended."""
    ended = _revoke_sessions(db, user_id=user.id, reason="signed_out", keep=current)
    audit.record(
        db,
        actor=actor,
        action="user.sessions_revoke_others",
        target_type="user",
        target_id=user.id,
        details={"sessions_ended": ended},
    )
    db.commit()
    return ended


def logout(
    db: Session, *, user: User, session_id: uuid.UUID, all_sessions: bool, actor: Actor
) -> None:
    if all_sessions:
        _revoke_sessions(db, user_id=user.id, reason="logout_all")
    else:
        db.execute(
            update(UserSession)
            .where(UserSession.id == session_id, UserSession.revoked_at.is_(None))
            .values(revoked_at=datetime.now(UTC), revoked_reason="logout")
        )
    audit.record(
        db,
        actor=actor,
        action="user.logout_all" if all_sessions else "user.logout",
        target_type="user",
        target_id=user.id,
        details={"session_id": str(session_id)},
    )
    db.commit()


# --- password and profile ---------------------------------------------------------------------


def _password_change_failed(db: Session, *, user: User, actor: Actor) -> None:
    audit.record(
        db,
        actor=actor,
        action="user.password_change_failed",
        target_type="user",
        target_id=user.id,
    )
    db.commit()


def _finish_password_change(
    db: Session,
    *,
    user: User,
    session_id: uuid.UUID,
    password_hash: str,
    actor: Actor,
    limits: list[_Limit],
) -> None:
    now = datetime.now(UTC)
    user.password_hash = password_hash
    user.password_changed_at = now
    ended = _revoke_sessions(db, user_id=user.id, reason="password_change", keep=session_id)
    _succeeded(db, limits)
    audit.record(
        db,
        actor=actor,
        action="user.password_changed",
        target_type="user",
        target_id=user.id,
        details={"sessions_ended": ended},
    )
    db.commit()
    if smtp.is_configured():
        account_emails.send_later(account_emails.password_changed(to=user.email))


async def change_password(
    db: Session,
    *,
    user: User,
    session_id: uuid.UUID,
    current_password: str,
    new_password: str,
    actor: Actor,
) -> None:
    """Change the password and revoke every other session of the user. The current password
    is checked under the same backoff as signing in from this client."""
    client = actor.ip or "unknown"

    def begin() -> list[_Limit]:
        limits = [
            limit
            for limit in _login_limits(db, email=user.email, client=client)
            if limit.name == "login_backoff_account_client"
        ]
        _reserve(db, limits)  # commits: no connection is held while the password is checked
        return limits

    limits = await run_in_threadpool(begin)
    try:
        ok = await password_work.run(security.verify_password, current_password, user.password_hash)
    except Busy:
        await run_in_threadpool(_release, db, limits)
        raise
    if not ok:
        await run_in_threadpool(lambda: _password_change_failed(db, user=user, actor=actor))
        raise Unauthorized("Current password is incorrect", code="invalid_credentials")
    try:
        password_hash = await _strong_hash("new_password", new_password, user.email, user.full_name)
    except (FieldInvalid, Busy):
        await run_in_threadpool(_release, db, limits)
        raise
    await run_in_threadpool(
        lambda: _finish_password_change(
            db,
            user=user,
            session_id=session_id,
            password_hash=password_hash,
            actor=actor,
            limits=limits,
        )
    )


def update_profile(db: Session, *, user: User, full_name: str | None, actor: Actor) -> User:
    if user.full_name != full_name:
        audit.record(
            db,
            actor=actor,
            action="user.profile_update",
            target_type="user",
            target_id=user.id,
            details={"full_name": {"from": user.full_name, "to": full_name}},
        )
        user.full_name = full_name
        db.commit()
    return user
