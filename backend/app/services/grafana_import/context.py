"""What one conversion has seen so far, and the list of what it could not carry over."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.schemas.dashboard import GrafanaUnmapped, UnmappedKind


@dataclass
class _Context:
    title: str
    inputs: dict[str, str]
    elements: dict[str, dict[str, Any]]
    unmapped: list[GrafanaUnmapped] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    variables: set[str] = field(default_factory=set)
    dropped_variables: set[str] = field(default_factory=set)
    datasource_variables: dict[str, str] = field(default_factory=dict)
    panels: int = 0

    def note(
        self, kind: UnmappedKind, title: str, reason: str, grafana_id: int | None = None
    ) -> None:
        self.unmapped.append(
            GrafanaUnmapped(kind=kind, title=title, grafana_id=grafana_id, reason=reason)
        )

    def panel_id(self, grafana_id: int | None) -> str:
        base = f"p{grafana_id}" if grafana_id is not None and grafana_id >= 0 else "panel"
        candidate, n = base, 2
        while candidate in self.ids:
            candidate, n = f"{base}-{n}", n + 1
        self.ids.add(candidate)
        return candidate
