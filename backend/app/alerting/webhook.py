"""Webhook delivery that cannot be turned against our own network.

A channel's URL may not reach loopback, private, link-local, multicast or otherwise reserved
addresses — checked when the channel is saved (``check_url``) and again at every connection
(``GuardedBackend``): the name is resolved once and the connection goes to the address that was
checked, so neither DNS rebinding nor a redirect to an internal address gets through.
Operators allow hosts that resolve to such addresses with ``VIGIL_ALERTING_WEBHOOK_ALLOW_HOSTS``
(names or CIDR ranges).

Requests are signed when the channel has a secret: ``X-Vigil-Signature: t=<unix>,v1=<hex>``
where ``v1`` is HMAC-SHA256 over ``"<t>.<body>"`` (see docs/alerting.md for verifying it).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import socket
import time
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpcore
import httpx
from httpcore._backends.sync import SyncBackend

from app.core.config import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
MAX_REDIRECTS = 3
USER_AGENT = "Vigil-Alerting/1"


class WebhookRefused(Exception):
    """The URL is not allowed (the reason is in ``str()``)."""


@dataclass(frozen=True)
class AllowList:
    hosts: frozenset[str]
    networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]

    @classmethod
    def parse(cls, text: str) -> AllowList:
        hosts: set[str] = set()
        nets = []
        for item in (p.strip() for p in text.split(",")):
            if not item:
                continue
            try:
                nets.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                hosts.add(item.lower().rstrip("."))
        return cls(frozenset(hosts), tuple(nets))

    def allows_host(self, host: str) -> bool:
        return host.lower().rstrip(".") in self.hosts

    def allows_address(self, ip: IPAddress) -> bool:
        return any(ip in net for net in self.networks)


def allow_list() -> AllowList:
    return AllowList.parse(settings.ALERTING_WEBHOOK_ALLOW_HOSTS)


def _public(ip: IPAddress) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or (isinstance(ip, ipaddress.IPv4Address) and ip in ipaddress.ip_network("100.64.0.0/10"))
    )


def resolve_allowed(host: str, port: int, allowed: AllowList) -> list[IPAddress]:
    """The addresses of ``host`` a webhook may connect to; WebhookRefused when one is not
    (a name with one internal address among public ones is refused as a whole)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise WebhookRefused(f"cannot resolve {host}: {exc.strerror or exc}") from None
    except (UnicodeError, ValueError):
        raise WebhookRefused(f"{host!r} is not a valid host name") from None
    addresses: list[IPAddress] = []
    for info in infos:
        ip = ipaddress.ip_address(info[4][0])
        if ip not in addresses:
            addresses.append(ip)
    if allowed.allows_host(host):
        return addresses
    for ip in addresses:
        if not _public(ip) and not allowed.allows_address(ip):
            raise WebhookRefused(
                f"{host} resolves to {ip}, a loopback, private or link-local address; webhooks "
                "may only reach public addresses unless an operator allows the host"
            )
    if not addresses:
        raise WebhookRefused(f"{host} has no address")
    return addresses


def check_url(url: str, allowed: AllowList | None = None) -> None:
    """Raise WebhookRefused unless ``url`` is an http(s) URL to an allowed host."""
    try:
        parts = urlsplit(url)
        hostname = parts.hostname
    except ValueError as exc:
        raise WebhookRefused(f"the URL is invalid: {exc}") from None
    if parts.scheme not in ("http", "https"):
        raise WebhookRefused("the URL must start with http:// or https://")
    if not hostname:
        raise WebhookRefused("the URL has no host")
    if parts.username or parts.password:
        raise WebhookRefused("put credentials in a header or the secret, not in the URL")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise WebhookRefused(f"the URL's port is invalid: {exc}") from None
    resolve_allowed(hostname, port, allowed or allow_list())


class GuardedBackend(SyncBackend):
    """Connects only to addresses ``resolve_allowed`` accepts, to the address it checked."""

    def __init__(self, allowed: AllowList) -> None:
        self.allowed = allowed

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[typing.Any] | None = None,
    ) -> httpcore.NetworkStream:
        try:
            addresses = resolve_allowed(host, port, self.allowed)
        except WebhookRefused as exc:
            raise httpcore.ConnectError(str(exc)) from exc
        stream: httpcore.NetworkStream = super().connect_tcp(
            str(addresses[0]), port, timeout, local_address, socket_options
        )
        return stream


class GuardedTransport(httpx.HTTPTransport):
    def __init__(self, allowed: AllowList) -> None:
        super().__init__(trust_env=False)
        ssl_context = httpx.create_ssl_context(trust_env=False)
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context,
            max_connections=20,
            max_keepalive_connections=0,
            network_backend=GuardedBackend(allowed),
        )


def sign(secret: str, body: bytes, timestamp: int) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


@dataclass(frozen=True)
class Delivery:
    ok: bool
    status: int | None
    error: str | None
    retryable: bool


def post(
    url: str,
    body: bytes,
    *,
    headers: Mapping[str, str],
    secret: str | None,
    timeout: float | None = None,
    allowed: AllowList | None = None,
) -> Delivery:
    """POST ``body`` (JSON) to ``url``. 2xx is delivered; network errors, 408, 429 and 5xx are
    worth retrying; other answers are not."""
    try:
        check_url(url, allowed)
    except WebhookRefused as exc:
        return Delivery(False, None, str(exc), retryable=False)
    sent = {"Content-Type": "application/json", "User-Agent": USER_AGENT, **headers}
    if secret:
        sent["X-Vigil-Signature"] = sign(secret, body, int(time.time()))
    transport = GuardedTransport(allowed or allow_list())
    try:
        with httpx.Client(
            transport=transport,
            timeout=timeout or settings.ALERTING_WEBHOOK_TIMEOUT_SECONDS,
            follow_redirects=True,
            max_redirects=MAX_REDIRECTS,
            trust_env=False,
        ) as client:
            response = client.post(url, content=body, headers=sent)
    except httpx.TooManyRedirects:
        return Delivery(False, None, f"more than {MAX_REDIRECTS} redirects", retryable=False)
    except httpx.ConnectError as exc:
        refused = "may only reach public addresses" in str(exc)
        return Delivery(False, None, f"cannot connect: {exc}"[:500], retryable=not refused)
    except httpx.TimeoutException as exc:
        return Delivery(False, None, f"no answer in time ({type(exc).__name__})", retryable=True)
    except httpx.HTTPError as exc:
        return Delivery(False, None, f"{type(exc).__name__}: {exc}"[:500], retryable=True)
    if 200 <= response.status_code < 300:
        return Delivery(True, response.status_code, None, retryable=False)
    text = response.text[:200].strip()
    error = f"the receiver answered {response.status_code}" + (f": {text}" if text else "")
    retryable = response.status_code in (408, 429) or response.status_code >= 500
    return Delivery(False, response.status_code, error, retryable=retryable)
