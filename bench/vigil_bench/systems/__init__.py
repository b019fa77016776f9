"""The systems a benchmark compares, by id."""

from __future__ import annotations

from .base import Reader, System, Unavailable, Writer
from .influxdb import InfluxDB
from .postgres import Postgres
from .vigil import VigilStack
from .vm import VictoriaMetrics, VigilStorage

SYSTEMS: dict[str, type[System]] = {
    cls.id: cls for cls in (VigilStack, VigilStorage, VictoriaMetrics, InfluxDB, Postgres)
}

__all__ = ["SYSTEMS", "Reader", "System", "Unavailable", "Writer"]
