"""Where a request's key comes from, and how it is hashed."""

from __future__ import annotations

import base64
import hashlib

import pytest

from vigil_ingest.common.errors import Unauthorized
from vigil_ingest.gateway.auth import extract_key, hash_key

KEY = "vgi_" + "A" * 43


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


@pytest.mark.parametrize(
    ("headers", "query"),
    [
        ({"authorization": f"Token {KEY}"}, {}),
        ({"authorization": f"token {KEY}"}, {}),
        ({"authorization": f"Bearer {KEY}"}, {}),
        ({"authorization": f"  Bearer   {KEY}  "}, {}),
        ({"authorization": basic("telegraf", KEY)}, {}),  # Telegraf influxdb output
        ({"authorization": basic(KEY, "")}, {}),  # key as the user name only
        ({}, {"token": KEY}),
        ({}, {"u": "telegraf", "p": KEY}),  # InfluxDB 1.x query credentials
        ({"authorization": f"Token {KEY}"}, {"token": "ignored"}),  # header wins
    ],
)
def test_key_forms(headers, query) -> None:
    assert extract_key(headers, query) == KEY


@pytest.mark.parametrize(
    ("headers", "query", "message"),
    [
        ({}, {}, "missing ingest key"),
        ({"authorization": "Token "}, {}, "missing ingest key"),
        ({"authorization": "Digest x"}, {}, "unsupported authorization scheme 'digest'"),
        ({"authorization": "Basic ***"}, {}, "malformed Basic authorization header"),
        (
            {"authorization": "Basic " + base64.b64encode(b"nocolon").decode()},
            {},
            "malformed Basic authorization header: no ':'",
        ),
        ({"authorization": "Token " + "x" * 600}, {}, "invalid ingest key"),
    ],
)
def test_refused_forms(headers, query, message) -> None:
    with pytest.raises(Unauthorized) as e:
        extract_key(headers, query)
    assert e.value.message.startswith(message)
    assert e.value.status == 401


def test_hash_is_lowercase_hex_sha256_of_the_full_key() -> None:
    assert hash_key(KEY) == hashlib.sha256(KEY.encode()).hexdigest()
    assert hash_key(KEY) == hash_key(KEY).lower()
