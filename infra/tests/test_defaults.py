"""infra/defaults.env is the one table of the stack's defaults: every file that repeats one of
its values (where reading the table is not possible: compiled defaults, container files,
settings classes that also run outside the repository) is held to it here."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def defaults() -> dict[str, str]:
    lines = (ROOT / "infra" / "defaults.env").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


# Each copy of the storage port: the file and a pattern whose groups are the port.
STORAGE_PORT = [
    ("storage/app/vigil-storage/main.go", r'"httpListenAddr", "127\.0\.0\.1:(\d+)"'),
    ("storage/Dockerfile", r"EXPOSE (\d+)\n"),
    ("storage/Dockerfile", r"vigil-storage -httpListenAddr=:(\d+) "),
    ("docker-compose.yml", r"VIGIL_STORAGE_URL: http://storage:(\d+)\n"),
    ("docker-compose.yml", r'ports: \["127\.0\.0\.1:(\d+):(\d+)"\]\n    volumes: \[storage:'),
    ("backend/app/core/config.py", r'STORAGE_URL: str = "http://127\.0\.0\.1:(\d+)"'),
    ("ingest/vigil_ingest/common/config.py", r'storage_url: str = "http://127\.0\.0\.1:(\d+)"'),
    ("backend/tests/conftest.py", r'"VIGIL_STORAGE_URL", "http://127\.0\.0\.1:(\d+)"'),
    ("infra/tests/stack.py", r'"VIGIL_STORAGE_URL", "http://127\.0\.0\.1:(\d+)"'),
    ("bench/vigil_bench/systems/vigil.py", r'"VIGIL_STORAGE_URL", "http://127\.0\.0\.1:(\d+)"'),
]

# Files that name the port without it being a default: documentation, and tests that use it
# as an example value.
MENTIONS = {
    "bench/tests/test_procs.py",
    "ingest/tests/consumer/test_storage_client.py",
    # a deliberately broken Dockerfile the compose checker must refuse
    "infra/compose/testdata/broken/storage/Dockerfile",
}


@pytest.mark.parametrize(
    ("path", "pattern"), STORAGE_PORT, ids=[f"{p}:{r[:24]}" for p, r in STORAGE_PORT]
)
def test_storage_port_copies_match_the_table(path: str, pattern: str) -> None:
    m = re.search(pattern, (ROOT / path).read_text())
    assert m is not None, f"{path}: the storage port is no longer where {pattern!r} finds it"
    assert set(m.groups()) == {defaults()["VIGIL_STORAGE_PORT"]}, f"{path}: {m.group(0)!r}"


def test_every_copy_of_the_storage_port_is_held() -> None:
    port = defaults()["VIGIL_STORAGE_PORT"]
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split("\0")
    held = {p for p, _ in STORAGE_PORT} | MENTIONS | {"infra/defaults.env"}
    copies = {
        p
        for p in tracked
        if p
        and not p.endswith(".md")
        and (ROOT / p).is_file()
        and re.search(rf"(?<![\d.]){port}(?!\d)", (ROOT / p).read_text(errors="replace"))
    }
    assert copies - held == set(), (
        "new copies of the storage port: read infra/defaults.env or add them here"
    )
