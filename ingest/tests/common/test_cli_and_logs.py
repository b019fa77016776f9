"""The services' command lines (``--help``, unknown arguments) and JSON log lines, run as the
real entry points in subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def run(
    module: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "VIGIL_LOG_FORMAT"}
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        env={**base, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("module", "prog", "says", "settings"),
    [
        (
            "vigil_ingest.gateway",
            "vigil-gateway",
            "Vigil's ingest gateway: takes metrics from agents",
            [
                "VIGIL_GATEWAY_PORT 8001",
                "VIGIL_KAFKA_ACK_TIMEOUT_SECONDS 5.0",
            ],
        ),
        (
            "vigil_ingest.consumer",
            "vigil-consumer",
            "Vigil's ingest consumer: reads the batches",
            [
                "VIGIL_CONSUMER_PORT 8002",
                "VIGIL_CONSUMER_GROUP vigil-consumer",
                "VIGIL_INTERNAL_TOKEN unset",
            ],
        ),
    ],
)
def test_help_says_what_the_service_does_and_its_settings(
    module: str, prog: str, says: str, settings: list[str]
) -> None:
    out = run(module, "--help")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"usage: {prog} [-h]")
    assert says in out.stdout
    table = out.stdout.split("settings (environment variables):\n", 1)[1]
    listed = dict(line.split(None, 1) for line in table.splitlines())
    for line in [*settings, "VIGIL_LOG_FORMAT text"]:
        name, default = line.split(None, 1)
        assert listed[name] == default, name
    assert out.stderr == ""


@pytest.mark.parametrize(
    ("module", "prog"),
    [("vigil_ingest.gateway", "vigil-gateway"), ("vigil_ingest.consumer", "vigil-consumer")],
)
def test_unknown_argument_exits_2_naming_it(module: str, prog: str) -> None:
    out = run(module, "--port=1")
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.endswith(f"{prog}: error: unrecognized arguments: --port=1\n")


def test_a_bad_log_format_is_refused_naming_the_variable() -> None:
    code = "from vigil_ingest.common.config import Settings; Settings()"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "VIGIL_LOG_FORMAT": "xml"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1
    assert "log_format" in out.stderr and "'text' or 'json'" in out.stderr


def test_json_log_lines_parse_with_level_message_logger() -> None:
    """The gateway's logging as its entry point sets it up, in a process of its own."""
    code = (
        "import logging; from vigil_ingest.common.config import Settings; "
        "from vigil_ingest.common.logs import setup_logging; "
        "setup_logging(Settings().log_format); "
        "logging.getLogger('vigil_ingest.gateway.app').warning('kafka %s', 'slow'); "
        "logging.getLogger('uvicorn.error').info('Started server process')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "VIGIL_LOG_FORMAT": "json"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = [json.loads(line) for line in out.stderr.splitlines()]
    assert [(x["level"], x["logger"], x["message"]) for x in lines] == [
        ("WARNING", "vigil_ingest.gateway.app", "kafka slow"),
        ("INFO", "uvicorn.error", "Started server process"),
    ]
    assert all(x["time"] for x in lines)
