"""Message templates: ``{{name}}`` is replaced by the group's tag or a built-in value.

Built-ins: ``monitor``, ``status`` (firing, resolved, nodata), ``severity``, ``value``,
``condition``, ``query``, ``time`` (ISO 8601, UTC), ``tags`` (``host=web-1, region=eu``) and
``url`` (the alert's page). Any other name is a tag of the group (``{{host}}``), also written
``{{tags.host}}``; a name the group does not have becomes empty. Nothing else is evaluated:
a template cannot run code or read anything but these values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

VARIABLE = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*\}\}")
BUILTINS = ("monitor", "status", "severity", "value", "condition", "query", "time", "tags", "url")

DEFAULT_TITLE = "[{{severity}}] {{monitor}} is {{status}}"
DEFAULT_MESSAGE = "{{monitor}} is {{status}} for {{tags}}: the value is {{value}} ({{condition}})."


def render(template: str, values: Mapping[str, str], tags: Mapping[str, str]) -> str:
    def sub(m: re.Match[str]) -> str:
        name = m.group(1)
        if name.startswith("tags."):
            return tags.get(name[5:], "")
        if name in values:
            return values[name]
        return tags.get(name, "")

    return VARIABLE.sub(sub, template)


def describe_tags(tags: Mapping[str, str]) -> str:
    shown = {k: v for k, v in sorted(tags.items()) if not k.startswith("__")}
    return ", ".join(f"{k}={v}" for k, v in shown.items()) or "the whole query"
