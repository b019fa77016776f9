"""Runtime configuration: the only place that reads the environment.

Every setting comes from a ``VIGIL_*`` variable (see docs/internals.md). Secrets that
``make up`` writes under ``$VIGIL_HOME`` (``secret_key``, ``internal_token``) are read from
there when the variable itself is not set.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[3]
PLACEHOLDER_SECRET = "changethis"
MIN_SECRET_CHARS = 16


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="VIGIL_", extra="ignore", case_sensitive=False)

    # "development" (set by `make up` and `make test`, never by the images) is the only one that
    # runs with the placeholder secret; anything else refuses to start without real secrets.
    ENVIRONMENT: Literal["development", "test", "production"] = "production"
    PROJECT_NAME: str = "Vigil"
    API_V1_STR: str = "/api/v1"

    HOME: Path = REPO_ROOT / ".vigil"
    DATABASE_URL: str = "postgresql+psycopg://vigil:vigil@127.0.0.1:55432/vigil"
    KAFKA_BOOTSTRAP: str = "127.0.0.1:59092"
    STORAGE_URL: str = "http://127.0.0.1:8482"
    GATEWAY_URL: str = "http://127.0.0.1:8001"
    CONSUMER_URL: str = "http://127.0.0.1:8002"
    # Where agents outside this machine reach the ingest gateway, as the UI tells users
    # (`http://ingest.example.com:8001`). Unset, the UI shows the host it was opened at with
    # the gateway's default port 8001.
    PUBLIC_GATEWAY_URL: str | None = None
    UI_DIR: Path = REPO_ROOT / "frontend" / "dist"
    # Where people open Vigil: the base of the links in the emails and notifications it sends.
    # Never taken from a request's Host header, which whoever sends the request chooses.
    PUBLIC_URL: str = "http://127.0.0.1:8000"
    # Proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For is believed:
    # when a request comes from one, the client is the last address in that header that is
    # not itself a trusted proxy. Empty: the client is the connection's peer.
    TRUSTED_PROXIES: str = ""

    SECRET_KEY: str = ""
    INTERNAL_TOKEN: str = ""

    ACCESS_TOKEN_EXPIRE_MINUTES: int = Field(default=15, ge=1)
    REFRESH_TOKEN_EXPIRE_DAYS: int = Field(default=30, ge=1)
    INVITATION_EXPIRE_DAYS: int = Field(default=7, ge=1)

    # argon2id cost; the defaults are argon2-cffi's RFC 9106 "low memory" profile.
    PASSWORD_HASH_TIME_COST: int = Field(default=3, ge=1)
    PASSWORD_HASH_MEMORY_KIB: int = Field(default=65536, ge=8)

    # Sign-in throttling is a backoff, never a lockout (app/services/throttle.py): after the
    # free failures each further one doubles the wait before the next try (1 s, 2 s, 4 s …)
    # up to the maximum. Counted per account and client, per client, and per account for
    # clients that never signed in to it; forgotten after LOGIN_FORGET_AFTER_SECONDS quiet.
    LOGIN_FREE_FAILURES_PER_ACCOUNT_CLIENT: int = Field(default=5, ge=1)
    LOGIN_FREE_FAILURES_PER_CLIENT: int = Field(default=30, ge=1)
    LOGIN_FREE_FAILURES_PER_ACCOUNT: int = Field(default=20, ge=1)
    LOGIN_MAX_DELAY_SECONDS: int = Field(default=900, ge=1)
    LOGIN_MAX_DELAY_PER_ACCOUNT_SECONDS: int = Field(default=60, ge=1)
    LOGIN_FORGET_AFTER_SECONDS: int = Field(default=86400, ge=60)
    # A client that signed in to an account within this many days is not slowed down by other
    # clients' failures on it.
    LOGIN_KNOWN_CLIENT_DAYS: int = Field(default=30, ge=1)

    # Sign-up and password reset by email.
    SIGNUP_TOKEN_EXPIRE_HOURS: int = Field(default=24, ge=1)
    PASSWORD_RESET_EXPIRE_MINUTES: int = Field(default=60, ge=5)
    # requests per client and hour (429 past it), emails per address and hour (more are not
    # sent, and the answer stays the same, so it tells nothing about the address)
    EMAIL_REQUESTS_PER_CLIENT_PER_HOUR: int = Field(default=10, ge=1)
    EMAILS_PER_ADDRESS_PER_HOUR: int = Field(default=3, ge=1)

    # Password work (argon2id hashes, zxcvbn) runs on its own threads, never on the pool that
    # serves every other request: at most this many at once, and this many waiting (503 past it).
    PASSWORD_WORK_THREADS: int = Field(default=2, ge=1, le=64)
    PASSWORD_WORK_QUEUE: int = Field(default=64, ge=1)

    # "json": one JSON object per log line (time, level, logger, message) for log pipelines.
    LOG_FORMAT: Literal["text", "json"] = "text"
    # Who may read GET /metrics (Prometheus) without the internal token: client addresses or
    # CIDR ranges, comma-separated (the client as VIGIL_TRUSTED_PROXIES resolves it). Loopback
    # only by default; anyone else needs `Authorization: Bearer <VIGIL_INTERNAL_TOKEN>`.
    METRICS_ALLOW: str = "127.0.0.0/8,::1"

    MAX_REQUEST_BYTES: int = Field(default=4 * 1024 * 1024, ge=1024)
    HEALTH_TIMEOUT_SECONDS: float = Field(default=2.0, gt=0)
    KAFKA_CONSUMER_GROUP: str = "vigil-consumer"
    STORAGE_TIMEOUT_SECONDS: float = Field(default=120.0, gt=0)

    # Pools, in one place. Requests that need the database run on the worker threads (anyio's
    # default, 40): the database pool keeps as many connections open (DB_POOL_SIZE), so no
    # thread ever waits for a connection while holding its thread, and a burst does not open
    # and close connections (an overflow connection is closed as soon as it is given back:
    # a PostgreSQL process started and ended per request); DB_MAX_OVERFLOW more are for work
    # outside the worker threads (start-up, shutdown, background sweeps).
    # Connections to storage are kept alive up to STORAGE_MAX_CONNECTIONS: queries beyond a
    # workspace's concurrent_queries wait in the backend (QUERY_QUEUE_PER_WORKSPACE of them per
    # process, 429 past it), so the pool holds about the sum of the busy workspaces' concurrent
    # queries, never one connection per waiting client.
    DB_POOL_SIZE: int = Field(default=40, ge=1)
    DB_MAX_OVERFLOW: int = Field(default=10, ge=0)
    STORAGE_MAX_CONNECTIONS: int = Field(default=256, ge=1)
    QUERY_QUEUE_PER_WORKSPACE: int = Field(default=256, ge=0)
    # How long a process remembers a query key's workspace and limits (app.services.key_scopes;
    # a change committed through the process forgets them at once); 0 turns it off.
    KEY_SCOPE_CACHE_SECONDS: float = Field(default=1.0, ge=0, le=60)

    # The alerting service (app.alerting): its address (health), how many monitors it
    # evaluates at once, how many groups one monitor may track, notification delivery.
    ALERTING_URL: str = "http://127.0.0.1:8003"
    ALERTING_WORKERS: int = Field(default=4, ge=1, le=64)
    ALERTING_MAX_GROUPS: int = Field(default=1000, ge=1)
    ALERTING_NOTIFY_MAX_ATTEMPTS: int = Field(default=6, ge=1, le=50)
    ALERTING_NOTIFY_BACKOFF_SECONDS: float = Field(default=10.0, gt=0)
    ALERTING_WEBHOOK_TIMEOUT_SECONDS: float = Field(default=10.0, gt=0)
    # Webhook hosts allowed although they resolve to loopback/private/link-local addresses:
    # host names or CIDR ranges, comma-separated ("hooks.internal,10.1.0.0/16").
    ALERTING_WEBHOOK_ALLOW_HOSTS: str = ""
    ALERTING_HISTORY_DAYS: int = Field(default=90, ge=1)

    # Outgoing email (alert notifications, account emails). Unset host: no email is sent.
    SMTP_HOST: str | None = None
    SMTP_PORT: int = Field(default=25, ge=1, le=65535)
    SMTP_USERNAME: str = ""
    SMTP_PASSWORD: str = ""
    SMTP_SECURITY: Literal["none", "starttls", "tls"] = "none"
    SMTP_FROM: str = "Vigil <vigil@localhost>"
    SMTP_TIMEOUT_SECONDS: float = Field(default=10.0, gt=0)

    @field_validator("ALERTING_URL")
    @classmethod
    def _no_trailing_slash(cls, value: str) -> str:
        return value.strip().rstrip("/")

    @field_validator("SMTP_HOST")
    @classmethod
    def _smtp_host(cls, value: str | None) -> str | None:
        return (value or "").strip() or None

    # The retention sweep (app/services/retention.py): how often each workspace's points older
    # than its retention are deleted from storage, and how far past the retention a series may
    # hold points before it is rewritten (percent of the retention).
    RETENTION_SWEEP: bool = True
    RETENTION_SWEEP_INTERVAL_SECONDS: int = Field(default=3600, ge=1)
    RETENTION_SWEEP_FIRST_DELAY_SECONDS: float = Field(default=60.0, ge=0)
    RETENTION_GRACE_PERCENT: int = Field(default=10, ge=0, le=100)

    @field_validator("PUBLIC_GATEWAY_URL")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        # an empty variable means unset; a trailing slash would double in `<url>/v1/write`
        if value is None:
            return None
        return value.strip().rstrip("/") or None

    @field_validator("PUBLIC_URL")
    @classmethod
    def _public_base(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")):
            raise ValueError(f"must be an http:// or https:// URL, got {value!r}")
        return value

    @field_validator("TRUSTED_PROXIES", "METRICS_ALLOW")
    @classmethod
    def _network_list(cls, value: str) -> str:
        for item in _split(value):
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"{item!r} is not an address or a CIDR range") from None
        return value

    @property
    def trusted_proxies(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        return _networks(self.TRUSTED_PROXIES)

    @property
    def metrics_allow(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        return _networks(self.METRICS_ALLOW)

    @model_validator(mode="after")
    def _secrets(self) -> Settings:
        if not self.SECRET_KEY:
            self.SECRET_KEY = _read_secret(self.HOME / "secret_key") or PLACEHOLDER_SECRET
        if not self.INTERNAL_TOKEN:
            self.INTERNAL_TOKEN = _read_secret(self.HOME / "internal_token") or PLACEHOLDER_SECRET
        if not self.SMTP_PASSWORD:
            self.SMTP_PASSWORD = _read_secret(self.HOME / "smtp_password") or ""
        if self.ENVIRONMENT == "development":
            return self
        for name in ("SECRET_KEY", "INTERNAL_TOKEN"):
            value = getattr(self, name)
            if value == PLACEHOLDER_SECRET:
                raise ValueError(
                    f"VIGIL_{name} is not set and {self.HOME}/{name.lower()} does not exist: "
                    f"refusing to run with the placeholder {PLACEHOLDER_SECRET!r}. Set it to a "
                    "random secret (openssl rand -hex 32), or VIGIL_ENVIRONMENT=development "
                    "on a machine of your own"
                )
            if len(value) < MIN_SECRET_CHARS:
                raise ValueError(
                    f"VIGIL_{name} is {len(value)} characters long: use at least "
                    f"{MIN_SECRET_CHARS} random ones (openssl rand -hex 32)"
                )
        return self

    @property
    def sqlalchemy_url(self) -> str:
        url = self.DATABASE_URL
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
        return url


def _split(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


@lru_cache(maxsize=8)
def _networks(value: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in _split(value))


def _read_secret(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


@lru_cache
def get_settings() -> Settings:
    return Settings()


settings = get_settings()
