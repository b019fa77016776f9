"""The reserved tenant label and the names user input may never use.

Mirrors ``storage/lib/tenancy/names.go`` (Go), which is the one definition; a test checks
that both sides agree. Only vigil-storage sets the label; ingest refuses incoming names that
collide.
"""

from __future__ import annotations

LABEL = "vigil_workspace"
RESERVED_NAMES = frozenset({LABEL, "vm_account_id", "vm_project_id"})
RESERVED_PREFIX = "__"
METRIC_NAME_LABEL = "__name__"


def is_reserved(name: str) -> bool:
    """Whether a tag or label name is reserved (the tenant label, VictoriaMetrics' tenancy
    labels, or anything starting with ``__``)."""
    return name in RESERVED_NAMES or name.startswith(RESERVED_PREFIX)
