"""Service settings. The only module that reads the environment.

Every variable carries the ``VIGIL_`` prefix (see docs/internals.md, "Defaults and
environment"); a bad value stops the service at start with the variable's name.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from vigil_ingest.common.logs import LogFormat

_DEFAULT_HOME = Path(__file__).resolve().parents[3] / ".vigil"


_UNIT_MS = {
    "s": 1000,
    "m": 60_000,
    "h": 3_600_000,
    "d": 86_400_000,
    "w": 7 * 86_400_000,
    "y": 365 * 86_400_000,
}
_MONTH_MS = 31 * 86_400_000


def parse_retention_ms(value: str) -> int:
    """A VictoriaMetrics -retentionPeriod value in milliseconds: ``400d``, ``12h``, ``1y``,
    ``2w``, or a bare number of months (31 days each)."""
    v = value.strip()
    number, unit = (v[:-1], _UNIT_MS[v[-1]]) if v and v[-1] in _UNIT_MS else (v, _MONTH_MS)
    try:
        ms = float(number) * unit
    except ValueError:
        raise ValueError(
            f"VIGIL_RETENTION must look like 400d, 12h, 1y or a number of months, got {value!r}"
        ) from None
    if ms <= 0:
        raise ValueError(f"VIGIL_RETENTION must be positive, got {value!r}")
    return int(ms)


class Settings(BaseSettings):
    """Settings of the gateway and the consumer, read from ``VIGIL_*`` variables."""

    model_config = SettingsConfigDict(env_prefix="VIGIL_", extra="ignore", frozen=True)

    home: Path = _DEFAULT_HOME
    host: str = "127.0.0.1"
    gateway_port: int = Field(default=8001, ge=0, le=65535)
    gateway_workers: int = Field(default=1, ge=1, le=64)
    consumer_port: int = Field(default=8002, ge=0, le=65535)
    # "json": one JSON object per log line (time, level, logger, message)
    log_format: LogFormat = "text"

    database_url: str = "postgresql+psycopg://vigil:vigil@127.0.0.1:55432/vigil"
    kafka_bootstrap: str = "127.0.0.1:59092"
    # partitions of each topic; the services create missing topics with this many and grow
    # existing ones that have fewer (Kafka cannot shrink a topic)
    kafka_partitions: int = Field(default=12, ge=1)
    # partitions one workspace's records are spread over, round-robin (0: every partition of
    # the topic; 1: one partition per workspace, by the hash of its id)
    kafka_workspace_partitions: int = Field(default=0, ge=0)
    storage_url: str = "http://127.0.0.1:8482"
    internal_token: SecretStr | None = None

    # Must equal vigil-storage's -retentionPeriod (infra passes VIGIL_RETENTION to both):
    # the gateway refuses older points with a 400 instead of storage dead-lettering them.
    retention: str = "400d"

    # Gateway.
    auth_cache_seconds: float = Field(default=5.0, ge=0, le=5.0)
    # how often the points accepted per workspace and minute are added to PostgreSQL
    usage_flush_seconds: float = Field(default=5.0, gt=0, le=60.0)
    kafka_ack_timeout_seconds: float = Field(default=5.0, gt=0)
    kafka_max_record_bytes: int = Field(default=900_000, ge=1024)
    retry_after_seconds: int = Field(default=5, ge=1)
    # the points/s limit held across every gateway process (a token bucket per workspace in
    # PostgreSQL); false: each process keeps its own
    shared_rate_limit: bool = True

    # Consumer.
    consumer_group: str = "vigil-consumer"
    consumer_max_poll_records: int = Field(default=2000, ge=1)
    consumer_max_batch_bytes: int = Field(default=4 * 1024 * 1024, ge=1024)
    consumer_write_concurrency: int = Field(default=4, ge=1, le=64)
    storage_timeout_seconds: float = Field(default=30.0, gt=0)
    retry_initial_seconds: float = Field(default=0.5, gt=0)
    retry_max_seconds: float = Field(default=30.0, gt=0)
    # how long storage may refuse one workspace's batch (while it takes other workspaces'
    # writes) before the batch is parked in the dead-letter topic
    consumer_park_after_seconds: float = Field(default=60.0, gt=0)
    # bytes of groups held for workspaces storage cannot take now; past it, the partitions
    # they came from are paused until they are written or parked
    consumer_max_held_bytes: int = Field(default=256 * 1024 * 1024, ge=0)

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, v: str) -> str:
        if not v.startswith(("postgresql://", "postgresql+psycopg://", "postgres://")):
            raise ValueError(f"VIGIL_DATABASE_URL must be a postgresql:// URL, got {v!r}")
        return v

    @field_validator("retention")
    @classmethod
    def _retention_syntax(cls, v: str) -> str:
        parse_retention_ms(v)
        return v

    @property
    def retention_ms(self) -> int:
        return parse_retention_ms(self.retention)

    @property
    def psycopg_url(self) -> str:
        """The database URL without SQLAlchemy's driver suffix, as psycopg wants it."""
        return self.database_url.replace("postgresql+psycopg://", "postgresql://", 1)

    @property
    def kafka_servers(self) -> list[str]:
        return [s.strip() for s in self.kafka_bootstrap.split(",") if s.strip()]

    @cached_property
    def storage_token(self) -> str:
        """The internal bearer token for vigil-storage: ``VIGIL_INTERNAL_TOKEN``, else the
        contents of ``$VIGIL_HOME/internal_token``."""
        if self.internal_token is not None and self.internal_token.get_secret_value():
            return self.internal_token.get_secret_value().strip()
        path = self.home / "internal_token"
        try:
            token = path.read_text().strip()
        except FileNotFoundError:
            raise RuntimeError(
                f"no internal token: set VIGIL_INTERNAL_TOKEN or create {path}"
            ) from None
        if not token:
            raise RuntimeError(f"internal token file {path} is empty")
        return token
