"""What every compared system provides to the scenarios."""

from __future__ import annotations

import abc
import os
from pathlib import Path
from typing import ClassVar

from ..datagen import Chunk, Dataset
from ..questions import Answer, Question


def repo_root() -> Path:
    return Path(__file__).resolve().parents[3]


def vigil_home() -> Path:
    return Path(os.environ.get("VIGIL_HOME") or repo_root() / ".vigil")


def bin_dir() -> Path:
    return Path(os.environ.get("VIGIL_BIN") or vigil_home() / "bin")


def backend_url() -> str:
    """The running stack's backend: ``VIGIL_BACKEND_URL``, else loopback on ``VIGIL_BACKEND_PORT``."""
    port = os.environ.get("VIGIL_BACKEND_PORT", "8000")
    return os.environ.get("VIGIL_BACKEND_URL") or f"http://127.0.0.1:{port}"


def read_env_file(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        k, v = line.split("=", 1)
        if k.startswith("export "):
            k = k[len("export ") :]
        out[k.strip()] = v.strip().strip("'\"")
    return out


class Unavailable(RuntimeError):
    """The system cannot take part in this run; the message says why and how to fix it."""


class Writer(abc.ABC):
    """One client connection that writes prepared payloads (one per thread)."""

    @abc.abstractmethod
    def write(self, payload: bytes) -> None: ...

    def close(self) -> None:  # noqa: B027 - optional hook
        pass


class Reader(abc.ABC):
    """One client connection that asks questions in one language (one per thread)."""

    @abc.abstractmethod
    def fetch(self, q: Question) -> object:
        """Ask q and return the undecoded answer; raises on an error response."""

    @abc.abstractmethod
    def parse(self, q: Question, raw: object) -> Answer: ...

    def ask(self, q: Question) -> Answer:
        return self.parse(q, self.fetch(q))

    def close(self) -> None:  # noqa: B027 - optional hook
        pass


class System(abc.ABC):
    id: ClassVar[str]
    languages: ClassVar[tuple[str, ...]] = ()
    #: where the payload format comes from: "line" (Influx line protocol) or "copy" (SQL rows)
    payload_format: ClassVar[str] = "line"
    #: seconds after settle() before the data dir reflects everything written
    flush_wait_s: ClassVar[float] = 2.0

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.data_dir: Path | None = None
        self._version: str | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    @abc.abstractmethod
    def check(self) -> None:
        """Raise Unavailable when the system cannot run here."""

    @abc.abstractmethod
    def start(self) -> None: ...

    @abc.abstractmethod
    def stop(self) -> None: ...

    @abc.abstractmethod
    def processes(self) -> list[tuple[str, int]]:
        """(name, pid) of each process tree to sample."""

    def version(self) -> str:
        return self._version or "unknown"

    # -- writing -----------------------------------------------------------------------------
    def prepare(self, ds: Dataset) -> None:  # noqa: B027 - optional hook
        """Called once per dataset before its chunks are written (series tables)."""

    def payload(self, chunk: Chunk) -> bytes:
        return chunk.copy_rows() if self.payload_format == "copy" else chunk.line_protocol("ms")

    @abc.abstractmethod
    def writer(self) -> Writer: ...

    def settle(self) -> None:  # noqa: B027 - optional hook
        """Make every acknowledged write visible to queries and flushed to disk."""

    # -- reading -----------------------------------------------------------------------------
    def reader(self, language: str) -> Reader:
        raise Unavailable(f"{self.id} does not answer {language}")

    def native(self, q: Question, language: str) -> str:
        raise Unavailable(f"{self.id} does not answer {language}")

    def disk_bytes_extra(self) -> dict[str, int]:
        """System-specific size figures (table and index sizes) beside the data dir bytes."""
        return {}
