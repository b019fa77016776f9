"""The reserved names agree with their one definition, storage/lib/tenancy/names.go (Go),
and with the agent's copy generated from it (ingest/agent/lib/tenancy/tenancy.go)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vigil_ingest.common import tenancy

ROOT = Path(__file__).resolve().parents[3]
GO_DEFINITIONS = [
    ROOT / "storage" / "lib" / "tenancy" / "names.go",
    ROOT / "ingest" / "agent" / "lib" / "tenancy" / "tenancy.go",
]


def go_func_body(src: str, name: str) -> str:
    body = re.search(rf"func {name}\(name string\) bool \{{\s*return (.+?)\n\}}", src, re.S)
    assert body is not None, f"func {name} not found"
    return body.group(1)


@pytest.mark.parametrize("path", GO_DEFINITIONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_matches_go_definition(path: Path) -> None:
    src = path.read_text()
    label = re.search(r'const Label = "([^"]+)"', src)
    prefix = re.search(r'const ReservedPrefix = "([^"]+)"', src)
    assert label is not None and prefix is not None
    assert label.group(1) == tenancy.LABEL
    assert prefix.group(1) == tenancy.RESERVED_PREFIX
    tenant = go_func_body(src, "IsTenantLabel")
    names = set(re.findall(r'name == "([^"]+)"', tenant))
    if "name == Label" in tenant:
        names.add(label.group(1))
    assert set(tenancy.RESERVED_NAMES) == names
    reserved = go_func_body(src, "IsReserved")
    assert reserved == "IsTenantLabel(name) || strings.HasPrefix(name, ReservedPrefix)"


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
