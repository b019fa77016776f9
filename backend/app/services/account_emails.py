"""The emails about accounts: finishing a sign-up, "you already have an account", resetting
a password, "your password was changed".

They leave on a thread of their own (``send_later``), so an answer never waits for the SMTP
server: a sign-up for a new address and one for an address that has an account take the same
time. Links point at ``VIGIL_PUBLIC_URL`` (never at a request's Host header) and carry their
token after ``#``, which browsers never send to a server, so it reaches no access log and no
Referer header.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage

from app.clients import smtp
from app.core.config import settings

logger = logging.getLogger(__name__)

MAX_QUEUED = 1000

_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="vigil-mail")
_lock = threading.Lock()
_queued = 0


def _deliver(message: EmailMessage) -> None:
    global _queued
    try:
        smtp.send(message)
    except smtp.EmailError as exc:
        # the reason names the server and its answer, never the message's text
        logger.warning("could not send %r to a recipient: %s", message["Subject"], exc)
    finally:
        with _lock:
            _queued -= 1


def send_later(message: EmailMessage) -> None:
    """Queue ``message`` for the SMTP server; dropped (and logged) past MAX_QUEUED waiting."""
    global _queued
    with _lock:
        if _queued >= MAX_QUEUED:
            logger.warning(
                "dropping %r: %d emails are waiting already", message["Subject"], _queued
            )
            return
        _queued += 1
    _executor.submit(_deliver, message)


def link(path: str, token: str) -> str:
    return f"{settings.PUBLIC_URL}{path}#token={token}"


def _hours(hours: int) -> str:
    return "1 hour" if hours == 1 else f"{hours} hours"


def signup_link(*, to: str, token: str) -> EmailMessage:
    url = link("/signup/complete", token)
    hours = _hours(settings.SIGNUP_TOKEN_EXPIRE_HOURS)
    return smtp.build_message(
        to=[to],
        subject="Finish creating your Vigil account",
        text=(
            "Hello,\n\n"
            f"Open this link within {hours} to choose your password and finish creating "
            f"your Vigil account for {to}:\n\n{url}\n\n"
            "If you did not ask for a Vigil account, ignore this email: no account is made "
            "without this link.\n"
        ),
    )


def already_registered(*, to: str) -> EmailMessage:
    return smtp.build_message(
        to=[to],
        subject="You already have a Vigil account",
        text=(
            "Hello,\n\n"
            f"Someone, maybe you, asked to create a Vigil account for {to}, which already "
            f"has one. Sign in at {settings.PUBLIC_URL}/login\n\n"
            f"Forgot your password? Ask for a new one at {settings.PUBLIC_URL}/forgot-password\n\n"
            "If it was not you, you can ignore this email: nothing changed.\n"
        ),
    )


def password_reset_link(*, to: str, token: str) -> EmailMessage:
    url = link("/reset-password", token)
    minutes = settings.PASSWORD_RESET_EXPIRE_MINUTES
    return smtp.build_message(
        to=[to],
        subject="Reset your Vigil password",
        text=(
            "Hello,\n\n"
            f"Open this link within {minutes} minutes to choose a new password for {to}:\n\n"
            f"{url}\n\n"
            "Every session of the account is signed out when the password changes.\n"
            "If you did not ask for this, ignore this email: your password stays as it is.\n"
        ),
    )


def password_changed(*, to: str) -> EmailMessage:
    return smtp.build_message(
        to=[to],
        subject="Your Vigil password was changed",
        text=(
            "Hello,\n\n"
            f"The password of your Vigil account {to} was just changed, and every other "
            "session of the account was signed out.\n\n"
            "If it was not you, reset your password now at "
            f"{settings.PUBLIC_URL}/forgot-password and look at your account's security log.\n"
        ),
    )
