"""The reserved names agree with storage/lib/tenancy (Go), their one definition."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vigil_ingest.common import tenancy

GO = Path(__file__).resolve().parents[3] / "storage" / "lib" / "tenancy" / "tenancy.go"


def test_matches_go_definition() -> None:
    src = GO.read_text()
    label = re.search(r'const Label = "([^"]+)"', src)
    assert label is not None
    assert label.group(1) == tenancy.LABEL
    body = re.search(r"func IsReserved\(name string\) bool \{\s*return (.+?)\n\}", src, re.S)
    assert body is not None
    names = set(re.findall(r'name == "([^"]+)"', body.group(1)))
    if "name == Label" in body.group(1):
        names.add(label.group(1))
    assert set(tenancy.RESERVED_NAMES) == names
    assert f'strings.HasPrefix(name, "{tenancy.RESERVED_PREFIX}")' in body.group(1)


@pytest.mark.parametrize(
    ("name", "reserved"),
    [
        ("vigil_workspace", True),
        ("vm_account_id", True),
        ("vm_project_id", True),
        ("__name__", True),
        ("__x", True),
        ("_x", False),
        ("host", False),
        ("workspace", False),
    ],
)
def test_is_reserved(name: str, reserved: bool) -> None:
    assert tenancy.is_reserved(name) is reserved
