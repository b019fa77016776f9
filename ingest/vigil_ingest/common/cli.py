"""The command lines of ``vigil-gateway`` and ``vigil-consumer``: they take no arguments but
``--help``, which says what the service does and lists the ``VIGIL_*`` settings it reads."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from vigil_ingest.common.config import Settings


def settings_help(names: Sequence[str]) -> str:
    """``VIGIL_<NAME>  default`` lines for the given settings, in the given order."""
    lines = ["settings (environment variables):"]
    for name in names:
        field = Settings.model_fields[name]
        default = field.default
        shown = "unset" if default is None else str(default)
        lines.append(f"  VIGIL_{name.upper():<36} {shown}")
    return "\n".join(lines)


def parse_args(
    prog: str, description: str, settings: Sequence[str], argv: Sequence[str] | None = None
) -> argparse.Namespace:
    """Answer ``--help`` (exit 0) and refuse any other argument (exit 2, naming it)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=description,
        epilog=settings_help(settings),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser.parse_args(argv)
