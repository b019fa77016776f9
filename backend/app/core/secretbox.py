"""Secrets Vigil must use again later (a webhook's signing secret), sealed at rest.

Fernet (AES-128-CBC + HMAC-SHA256) with a key derived from ``VIGIL_SECRET_KEY``: the database
alone does not reveal them. Rotating the secret key makes sealed secrets unreadable; the
channels that hold one then report it and must be saved again.
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken

from app.core.config import settings


class SecretUnreadable(Exception):
    """The sealed value was made with another secret key (or altered)."""


def _fernet() -> Fernet:
    digest = hashlib.sha256(b"vigil-secretbox:" + settings.SECRET_KEY.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def seal(plain: str) -> str:
    return _fernet().encrypt(plain.encode()).decode()


def unseal(sealed: str) -> str:
    try:
        return _fernet().decrypt(sealed.encode()).decode()
    except InvalidToken as exc:
        raise SecretUnreadable("the secret was sealed with another VIGIL_SECRET_KEY") from exc
