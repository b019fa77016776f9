"""HTTP content codings: what a client's ``Accept-Encoding`` allows."""

from __future__ import annotations


def accepted_encodings(header: str) -> set[str]:
    """Codings an ``Accept-Encoding`` header allows (``q=0`` excludes one)."""
    accepted = set()
    for item in header.split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        q = next((p[2:] for p in params if p.startswith("q=")), "1")
        try:
            if coding and float(q) > 0:
                accepted.add(coding.lower())
        except ValueError:
            continue
    return accepted


def accepts(header: str, coding: str) -> bool:
    """Whether a client sending ``Accept-Encoding: header`` can take ``coding``."""
    accepted = accepted_encodings(header)
    return coding in accepted or "*" in accepted
