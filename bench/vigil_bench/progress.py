"""A one-line progress bar on stderr (silent when stderr is not a terminal)."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, label: str, total: float, *, unit: str = "") -> None:
        self.label = label
        self.total = max(total, 1e-9)
        self.unit = unit
        self.done = 0.0
        self.tty = sys.stderr.isatty()
        self._last = 0.0

    def advance(self, n: float = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.tty and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            frac = min(1.0, self.done / self.total)
            bar = "#" * int(frac * 30)
            sys.stderr.write(f"\r  {self.label:<40.40} [{bar:<30}] {frac * 100:5.1f}%")
            sys.stderr.flush()

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\r" + " " * 90 + "\r")
            sys.stderr.flush()


def log(msg: str) -> None:
    sys.stderr.write(f"[vigil-bench] {msg}\n")
    sys.stderr.flush()
