"""Runtime configuration: the only place that reads the environment.

Every setting comes from a ``VIGIL_*`` variable (see docs/internals.md). Secrets that
``make up`` writes under ``$VIGIL_HOME`` (``secret_key``, ``internal_token``) are read from
there when the variable itself is not set.
"""

from __future__ import annotations

import ipaddress
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[3]
PLACEHOLDER_SECRET = "changethis"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="VIGIL_", extra="ignore", case_sensitive=False)

    ENVIRONMENT: Literal["local", "test", "production"] = "local"
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

    SECRET_KEY: str = ""
    INTERNAL_TOKEN: str = ""

    ACCESS_TOKEN_EXPIRE_MINUTES: int = Field(default=15, ge=1)
    REFRESH_TOKEN_EXPIRE_DAYS: int = Field(default=30, ge=1)
    INVITATION_EXPIRE_DAYS: int = Field(default=7, ge=1)

    # argon2id cost; the defaults are argon2-cffi's RFC 9106 "low memory" profile.
    PASSWORD_HASH_TIME_COST: int = Field(default=3, ge=1)
    PASSWORD_HASH_MEMORY_KIB: int = Field(default=65536, ge=8)

    # Login throttling: failed attempts allowed within the window before 429.
    LOGIN_WINDOW_SECONDS: int = Field(default=900, ge=1)
    LOGIN_MAX_FAILURES_PER_ACCOUNT: int = Field(default=5, ge=1)
    LOGIN_MAX_FAILURES_PER_ADDRESS: int = Field(default=20, ge=1)

    # "json": one JSON object per log line (time, level, logger, message) for log pipelines.
    LOG_FORMAT: Literal["text", "json"] = "text"
    # Who may read GET /metrics (Prometheus): client addresses or CIDR ranges, comma-separated.
    # Loopback only by default, like the other services' /metrics, which listen on loopback.
    METRICS_ALLOW: str = "127.0.0.0/8,::1"

    MAX_REQUEST_BYTES: int = Field(default=4 * 1024 * 1024, ge=1024)
    HEALTH_TIMEOUT_SECONDS: float = Field(default=2.0, gt=0)
    KAFKA_CONSUMER_GROUP: str = "vigil-consumer"
    STORAGE_TIMEOUT_SECONDS: float = Field(default=120.0, gt=0)

    # Where people open the UI, for links in notifications (default: the backend's address).
    PUBLIC_URL: str = "http://127.0.0.1:8000"

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

    @field_validator("PUBLIC_URL", "ALERTING_URL")
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

    @model_validator(mode="after")
    def _secrets(self) -> Settings:
        if not self.SECRET_KEY:
            self.SECRET_KEY = _read_secret(self.HOME / "secret_key") or PLACEHOLDER_SECRET
        if not self.INTERNAL_TOKEN:
            self.INTERNAL_TOKEN = _read_secret(self.HOME / "internal_token") or PLACEHOLDER_SECRET
        for name in ("SECRET_KEY", "INTERNAL_TOKEN"):
            if getattr(self, name) == PLACEHOLDER_SECRET:
                message = (
                    f"VIGIL_{name} is not set and {self.HOME}/{name.lower()} does not exist; "
                    f"using the placeholder {PLACEHOLDER_SECRET!r}"
                )
                if self.ENVIRONMENT == "production":
                    raise ValueError(message + " (refused in production)")
                warnings.warn(message, stacklevel=1)
        return self

    @field_validator("METRICS_ALLOW")
    @classmethod
    def _metrics_allow(cls, value: str) -> str:
        _networks(value)
        return value

    @property
    def metrics_allow_networks(self) -> list[IPNetwork]:
        return _networks(self.METRICS_ALLOW)

    @property
    def sqlalchemy_url(self) -> str:
        url = self.DATABASE_URL
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
        return url


IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def _networks(value: str) -> list[IPNetwork]:
    out: list[IPNetwork] = []
    for item in value.split(","):
        if item.strip():
            try:
                out.append(ipaddress.ip_network(item.strip(), strict=False))
            except ValueError:
                raise ValueError(
                    f"VIGIL_METRICS_ALLOW: {item.strip()!r} is not an address or CIDR range"
                ) from None
    return out


def _read_secret(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


@lru_cache
def get_settings() -> Settings:
    return Settings()


settings = get_settings()
