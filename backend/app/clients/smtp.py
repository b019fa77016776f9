"""Sending email through the SMTP server the operator configured (``VIGIL_SMTP_*``).

One function for every mail Vigil sends (alert notifications, account emails). Errors are
raised as :class:`EmailError` with a reason safe to show to the workspace (no credentials).
``make up`` and ``make test`` point these settings at the local mail sink (``infra/mail``).
"""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Mapping, Sequence
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from app.core.config import settings


class EmailError(Exception):
    """The message could not be handed to the SMTP server (the reason is in ``str()``)."""


def is_configured() -> bool:
    return bool(settings.SMTP_HOST)


def build_message(
    *,
    to: Sequence[str],
    subject: str,
    text: str,
    html: str | None = None,
    headers: Mapping[str, str] | None = None,
    message_id: str | None = None,
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = settings.SMTP_FROM
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    msg["Message-ID"] = message_id or make_msgid(domain="vigil")
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    return msg


def send(message: EmailMessage) -> None:
    """Hand ``message`` to the configured server; raise EmailError when it is refused."""
    if not settings.SMTP_HOST:
        raise EmailError("no SMTP server is configured (VIGIL_SMTP_HOST)")
    host, port, timeout = settings.SMTP_HOST, settings.SMTP_PORT, settings.SMTP_TIMEOUT_SECONDS
    try:
        smtp: smtplib.SMTP
        if settings.SMTP_SECURITY == "tls":
            smtp = smtplib.SMTP_SSL(
                host, port, timeout=timeout, context=ssl.create_default_context()
            )
        else:
            smtp = smtplib.SMTP(host, port, timeout=timeout)
        with smtp:
            if settings.SMTP_SECURITY == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if settings.SMTP_USERNAME:
                smtp.login(settings.SMTP_USERNAME, settings.SMTP_PASSWORD)
            refused = smtp.send_message(message)
    except smtplib.SMTPRecipientsRefused as exc:
        raise EmailError(
            f"the SMTP server refused every recipient: {_codes(exc.recipients)}"
        ) from None
    except smtplib.SMTPResponseException as exc:
        reason = (
            exc.smtp_error.decode(errors="replace")
            if isinstance(exc.smtp_error, bytes)
            else exc.smtp_error
        )
        raise EmailError(f"the SMTP server answered {exc.smtp_code}: {reason}"[:300]) from None
    except (smtplib.SMTPException, OSError) as exc:
        raise EmailError(
            f"cannot deliver to {host}:{port}: {exc or type(exc).__name__}"[:300]
        ) from None
    if refused:
        raise EmailError(f"the SMTP server refused some recipients: {_codes(refused)}")


def _codes(recipients: Mapping[str, tuple[int, bytes]]) -> str:
    return ", ".join(f"{addr} ({code})" for addr, (code, _msg) in sorted(recipients.items()))[:300]
