"""Settings: VIGIL_ variables, validation naming the variable, the internal token."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from vigil_ingest.common.config import Settings


def test_defaults_match_infra_defaults(monkeypatch) -> None:
    for var in (
        "VIGIL_GATEWAY_PORT",
        "VIGIL_CONSUMER_PORT",
        "VIGIL_KAFKA_PARTITIONS",
        "VIGIL_RETENTION",
    ):
        monkeypatch.delenv(var, raising=False)
    s = Settings()
    defaults = dict(
        line.split("=", 1)
        for line in (Settings.model_fields["home"].default.parent / "infra" / "defaults.env")
        .read_text()
        .splitlines()
        if line and not line.startswith("#")
    )
    assert s.gateway_port == int(defaults["VIGIL_GATEWAY_PORT"])
    assert s.consumer_port == int(defaults["VIGIL_CONSUMER_PORT"])
    assert s.kafka_partitions == int(defaults["VIGIL_KAFKA_PARTITIONS"])
    # the gateway's window is storage's -retentionPeriod (infra/compose checks compose's)
    assert s.retention == defaults["VIGIL_RETENTION"]


def test_env_prefix(monkeypatch) -> None:
    monkeypatch.setenv("VIGIL_GATEWAY_PORT", "9999")
    monkeypatch.setenv("VIGIL_KAFKA_BOOTSTRAP", "a:1, b:2")
    s = Settings()
    assert s.gateway_port == 9999
    assert s.kafka_servers == ["a:1", "b:2"]


def test_bad_value_names_the_variable(monkeypatch) -> None:
    monkeypatch.setenv("VIGIL_GATEWAY_PORT", "not-a-port")
    with pytest.raises(ValidationError, match="gateway_port"):
        Settings()


def test_auth_cache_cannot_exceed_contract() -> None:
    with pytest.raises(ValidationError, match="auth_cache_seconds"):
        Settings(auth_cache_seconds=10)


def test_database_url_for_psycopg() -> None:
    s = Settings(database_url="postgresql+psycopg://u:p@h:1/d")
    assert s.psycopg_url == "postgresql://u:p@h:1/d"
    with pytest.raises(ValidationError, match="postgresql"):
        Settings(database_url="mysql://x")


def test_internal_token_from_env_or_file(tmp_path) -> None:
    assert Settings(internal_token="abc ").storage_token == "abc"
    (tmp_path / "internal_token").write_text("from-file\n")
    assert Settings(home=tmp_path, internal_token=None).storage_token == "from-file"
    with pytest.raises(RuntimeError, match="no internal token"):
        _ = Settings(home=tmp_path / "missing", internal_token=None).storage_token


@pytest.mark.parametrize(
    ("value", "ms"),
    [
        ("400d", 400 * 86_400_000),
        ("12h", 12 * 3_600_000),
        ("1y", 365 * 86_400_000),
        ("2w", 14 * 86_400_000),
        ("1", 31 * 86_400_000),
        ("90s", 90_000),
    ],
)
def test_retention(value: str, ms: int) -> None:
    assert Settings(retention=value).retention_ms == ms


@pytest.mark.parametrize("value", ["forever", "-1d", "0"])
def test_bad_retention_names_the_variable(value: str) -> None:
    with pytest.raises(ValidationError, match="VIGIL_RETENTION"):
        Settings(retention=value)
