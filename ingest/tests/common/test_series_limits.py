"""The series limits agree with vigil-storage's flags (storage/app/ingest), their one
definition, and nothing that starts storage overrides them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vigil_ingest.common import series_limits

ROOT = Path(__file__).resolve().parents[3]
FLAGS = {
    "ingest.maxLabelNameLen": series_limits.MAX_NAME_BYTES,
    "ingest.maxLabelValueLen": series_limits.MAX_VALUE_BYTES,
    "ingest.maxLabelsPerSeries": series_limits.MAX_LABELS,
}


@pytest.mark.parametrize(("flag", "value"), sorted(FLAGS.items()))
def test_matches_storage_flag_default(flag: str, value: int) -> None:
    src = "\n".join(p.read_text() for p in sorted((ROOT / "storage/app/ingest").glob("*.go")))
    found = re.findall(r'flag\.Int\("' + re.escape(flag) + r'",\s*([0-9_]+)', src)
    assert found, f"-{flag} is no longer defined in storage/app/ingest"
    assert [int(v) for v in found] == [value]


def test_nothing_overrides_the_flags() -> None:
    """Scripts and manifests that start vigil-storage keep the defaults; a deployment that
    changes them must change common/series_limits.py too."""
    starters = [ROOT / "infra/up.sh", ROOT / "docker-compose.yml", ROOT / "storage/Dockerfile"]
    starters += sorted((ROOT / "infra").glob("*/*.sh"))
    for path in starters:
        if not path.exists():
            continue
        text = path.read_text()
        for flag in FLAGS:
            assert flag not in text, f"{path.relative_to(ROOT)} sets -{flag}"


@pytest.mark.parametrize(
    ("check", "arg", "message"),
    [
        (series_limits.name_too_long, b"k" * 256, None),
        (
            series_limits.name_too_long,
            b"k" * 257,
            "tag name 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…' is 257 bytes long, "
            "over the limit of 256",
        ),
        (series_limits.value_too_long, b"v" * 4096, None),
        (
            series_limits.value_too_long,
            b"v" * 4097,
            "tag is 4097 bytes long, over the limit of 4096",
        ),
    ],
)
def test_messages(check, arg, message) -> None:
    assert check("tag", arg) == message


def test_too_many() -> None:
    assert series_limits.too_many("tags", 64) is None
    assert series_limits.too_many("tags", 65) == "65 tags on one series, over the limit of 64"
