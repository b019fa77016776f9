"""Passwords (argon2id, zxcvbn's strength estimate), access tokens (JWT HS256), and opaque
secrets (refresh tokens, invitation codes, email links; API keys are in ``app.core.keys``)."""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn  # type: ignore[import-untyped]

from app.core.config import settings

ALGORITHM = "HS256"

_hasher = PasswordHasher(  # argon2id
    time_cost=settings.PASSWORD_HASH_TIME_COST, memory_cost=settings.PASSWORD_HASH_MEMORY_KIB
)
# Verified against for unknown accounts so that timing does not reveal which emails exist.
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))


# zxcvbn's score: 0 (guessed in under 10^3 tries), 1 (10^6), 2 (10^8), 3 (10^10), 4 (more).
# At least 2 refuses the common passwords, keyboard walks, names and dates, and words with
# obvious substitutions.
MIN_PASSWORD_SCORE = 2


def password_weakness(password: str, *, user_inputs: Sequence[str] = ()) -> str | None:
    """Why ``password`` is too easy to guess (zxcvbn's estimate, knowing the account's email
    and name), or None when it is not."""
    inputs = [part for text in user_inputs for part in re.split(r"[@.\s_+-]+", text) if part]
    result = zxcvbn(password[:100], user_inputs=[*user_inputs, *inputs])
    if result["score"] >= MIN_PASSWORD_SCORE:
        return None
    feedback = result["feedback"]
    hints = " ".join(x for x in [feedback.get("warning"), *feedback.get("suggestions", [])] if x)
    return f"password is too easy to guess. {hints or 'Use a longer phrase of uncommon words.'}"


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password: str, password_hash: str | None) -> bool:
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


def create_access_token(*, user_id: uuid.UUID, session_id: uuid.UUID) -> tuple[str, int]:
    """A short-lived JWT naming the user and the (revocable) session it belongs to."""
    expires_in = settings.ACCESS_TOKEN_EXPIRE_MINUTES * 60
    now = datetime.now(UTC)
    payload = {
        "sub": str(user_id),
        "sid": str(session_id),
        # unique per token: a renewal in the same second as the sign-in is still a new token
        "jti": uuid.uuid4().hex,
        "iat": now,
        "exp": now + timedelta(seconds=expires_in),
        "typ": "access",
    }
    return jwt.encode(payload, settings.SECRET_KEY, algorithm=ALGORITHM), expires_in


def decode_access_token(token: str) -> dict[str, Any] | None:
    try:
        payload: dict[str, Any] = jwt.decode(
            token, settings.SECRET_KEY, algorithms=[ALGORITHM], options={"require": ["exp", "sub"]}
        )
    except jwt.PyJWTError:
        return None
    if payload.get("typ") != "access":
        return None
    return payload


def sha256_hex(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def new_refresh_token() -> str:
    return "vgr_" + secrets.token_urlsafe(32)


def new_invitation_code() -> str:
    return "vginv_" + secrets.token_urlsafe(18)


def new_email_token() -> str:
    """The secret of a link sent by email (sign-up, password reset)."""
    return "vge_" + secrets.token_urlsafe(32)
