"""What a notification says (its payload, frozen when the event happens) and how it goes out
through a channel: a signed JSON POST for webhooks, a message through the SMTP server for
email. docs/alerting.md documents the payload."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from app.alerting import webhook
from app.alerting.conditions import fmt
from app.alerting.templates import describe_tags
from app.clients import smtp
from app.core import secretbox
from app.core.config import settings
from app.models import Channel, Notification, Workspace

PAYLOAD_VERSION = 1
STATUS = {"firing": "firing", "renotify": "firing", "nodata": "nodata", "resolved": "resolved"}


@dataclass(frozen=True)
class Outcome:
    ok: bool
    status_code: int | None
    error: str | None
    retryable: bool


def iso(t: datetime | None) -> str | None:
    return t.isoformat().replace("+00:00", "Z") if t is not None else None


def links(
    workspace_id: uuid.UUID,
    *,
    monitor_id: uuid.UUID | None,
    event_id: uuid.UUID | None,
    explore: tuple[str, str, int, int] | None = None,
) -> dict[str, str]:
    base = f"{settings.PUBLIC_URL}/w/{workspace_id}"
    out: dict[str, str] = {}
    if event_id is not None:
        out["alert"] = f"{base}/alerts/events/{event_id}"
    if monitor_id is not None:
        out["monitor"] = f"{base}/alerts/monitors/{monitor_id}"
    if explore is not None:
        language, query, start, end = explore
        params = {"q": query, "from": str(start), "to": str(end)}
        if language == "promql":
            params["lang"] = "promql"
        out["explore"] = f"{base}/explore?{urlencode(params)}"
    return out


def alert_payload(
    *,
    notification_id: uuid.UUID,
    kind: str,
    severity: str,
    title: str,
    message: str,
    workspace: Workspace,
    monitor: dict[str, Any],
    group_key: str,
    tags: dict[str, str],
    value: float | None,
    condition: str,
    since: datetime | None,
    event: dict[str, Any] | None,
    links: dict[str, str],
) -> dict[str, Any]:
    return {
        "version": PAYLOAD_VERSION,
        "id": str(notification_id),
        "kind": kind,
        "status": STATUS.get(kind, kind),
        "severity": severity,
        "title": title,
        "message": message,
        "workspace": {"id": str(workspace.id), "name": workspace.name},
        "monitor": monitor,
        "group": {"key": group_key, "tags": tags},
        "value": value,
        "condition": condition,
        "since": iso(since),
        "event": event,
        "links": links,
    }


def test_payload(
    notification_id: uuid.UUID,
    workspace: Workspace,
    channel: Channel,
    by: str | None,
    now: datetime,
) -> dict[str, Any]:
    return alert_payload(
        notification_id=notification_id,
        kind="test",
        severity="info",
        title=f"Test notification from Vigil ({channel.name})",
        message=f"{by or 'Someone'} sent this test to check that the channel {channel.name!r} "
        f"of workspace {workspace.name!r} reaches you. Nothing is wrong.",
        workspace=workspace,
        monitor={"id": None, "name": "Test", "language": None, "query": None, "runbook_url": None},
        group_key="",
        tags={},
        value=None,
        condition="",
        since=now,
        event=None,
        links=links(workspace.id, monitor_id=None, event_id=None),
    )


def send(channel: Channel, notification: Notification) -> Outcome:
    """Deliver ``notification`` through ``channel`` once."""
    if channel.type == "webhook":
        return _send_webhook(channel, notification)
    return _send_email(channel, notification)


def _send_webhook(channel: Channel, n: Notification) -> Outcome:
    secret = None
    if channel.secret_sealed:
        try:
            secret = secretbox.unseal(channel.secret_sealed)
        except secretbox.SecretUnreadable as exc:
            return Outcome(False, None, f"{exc}; save the channel's secret again", False)
    body = json.dumps(n.payload, separators=(",", ":"), sort_keys=True).encode()
    headers = {"X-Vigil-Idempotency-Key": str(n.id), "X-Vigil-Event": n.kind}
    d = webhook.post(str(channel.config["url"]), body, headers=headers, secret=secret)
    return Outcome(d.ok, d.status, d.error, d.retryable)


def email_text(p: dict[str, Any]) -> str:
    lines = [p["message"], ""]
    if p.get("kind") != "test":
        lines += [
            f"Status:    {p['status']} ({p['severity']})",
            f"Group:     {describe_tags(p['group']['tags'])}",
            f"Value:     {fmt(p['value'])}"
            + (f"  (condition {p['condition']})" if p["condition"] else ""),
            f"Monitor:   {p['monitor']['name']}",
            f"Query:     {p['monitor']['query']}",
            f"Since:     {p['since']}",
        ]
        if p["monitor"].get("runbook_url"):
            lines.append(f"Runbook:   {p['monitor']['runbook_url']}")
    for name, url in p.get("links", {}).items():
        lines.append(f"{name.capitalize() + ':':<10} {url}")
    lines += ["", f"Workspace {p['workspace']['name']} · notification {p['id']}"]
    return "\n".join(lines)


def _send_email(channel: Channel, n: Notification) -> Outcome:
    p = n.payload
    message = smtp.build_message(
        to=list(channel.config["addresses"]),
        subject=str(p["title"])[:300],
        text=email_text(p),
        headers={"X-Vigil-Idempotency-Key": str(n.id), "X-Vigil-Event": n.kind},
        message_id=f"<{n.id}@vigil>",
    )
    try:
        smtp.send(message)
    except smtp.EmailError as exc:
        return Outcome(False, None, str(exc), retryable=True)
    return Outcome(True, None, None, retryable=False)
