"""Child processes the runner starts: always stopped, also on Ctrl-C or SIGTERM.

Every server runs in its own process group so that stopping it reaches whatever it forked
(``runuser`` → ``postgres`` and its workers). :func:`install_signal_handlers` turns SIGTERM
into KeyboardInterrupt, and every started :class:`Service` is registered so that
:func:`stop_all` (also run at exit) leaves nothing behind.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import random
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import httpx

_live: list[Service] = []
_lock = threading.Lock()


class ServiceError(RuntimeError):
    """A system could not be started or did not become ready."""


def stack_port(port: int) -> bool:
    """Whether port lies where a Vigil stack may listen: every stack (``make up``, the
    ``make test`` stack on 1xxxx, stacks moved to other ten-thousands) puts its services on
    N8000-N9999 and PostgreSQL on N5432, and may start after a benchmark took a port."""
    return port % 10_000 >= 8000 or port % 10_000 == 5432


def _ephemeral_low() -> int:
    """Where the kernel starts picking ports for outgoing connections (and for ``bind(0)``)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


_handed_out: set[int] = set()


def free_port() -> int:
    """A free loopback port outside the Vigil stacks' port blocks, for a server to start on.

    It is taken below the kernel's ephemeral range, which outgoing connections draw from: a
    port found free there could be taken by any client connection before the server binds it
    (seen as "address already in use"). Within this process, no port is handed out twice.
    """
    high = min(_ephemeral_low(), 65536)
    low = max(1024, high - 12_000)
    rng = random.SystemRandom()
    for _ in range(500):
        port = rng.randrange(low, high)
        if stack_port(port) or port in _handed_out:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
    raise ServiceError(
        f"no free loopback port in {low}-{high - 1} outside the Vigil stacks' port blocks"
    )


class Service:
    """One server process (group) with its log file."""

    def __init__(
        self,
        name: str,
        argv: Sequence[str],
        *,
        log_path: Path,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        stop_signal: int = signal.SIGTERM,
    ) -> None:
        self.name = name
        self.argv = list(argv)
        self.log_path = log_path
        self.env = env
        self.cwd = cwd
        self.stop_signal = stop_signal
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        if self.proc is None:
            raise ServiceError(f"{self.name} is not running")
        return self.proc.pid

    def start(self) -> Service:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")  # noqa: SIM115 - owned by the child for its lifetime
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=self.env,
                cwd=self.cwd,
                start_new_session=True,
            )
        except OSError as e:
            raise ServiceError(f"cannot start {self.name} ({self.argv[0]}): {e}") from e
        finally:
            log.close()
        with _lock:
            _live.append(self)
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, lines: int = 15) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def wait_ready(self, check: Callable[[], bool], timeout: float = 60.0) -> None:
        """Poll check() until it is true; fail early, with the log, if the process died."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise ServiceError(
                    f"{self.name} exited with status {self.proc.returncode if self.proc else '?'}"
                    f" while starting; last log lines:\n{self.log_tail()}"
                )
            try:
                if check():
                    return
            except (httpx.HTTPError, OSError):
                pass
            time.sleep(0.1)
        raise ServiceError(f"{self.name} not ready after {timeout:.0f} s; log:\n{self.log_tail()}")

    def _signal_group(self, sig: int) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass
        except PermissionError:
            self.proc.send_signal(sig)

    def stop(self, timeout: float = 20.0) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self._signal_group(self.stop_signal)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self._signal_group(signal.SIGKILL)
                self.proc.wait(5)
        # Workers left behind in the group (postgres backends) get killed too.
        self._signal_group(signal.SIGKILL)
        with _lock:
            if self in _live:
                _live.remove(self)


def stop_all() -> None:
    with _lock:
        services = list(reversed(_live))
    for s in services:
        # best effort at exit: one failure must not leave the others running
        with contextlib.suppress(Exception):
            s.stop(timeout=10)


def _on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def install_signal_handlers() -> None:
    """SIGTERM behaves like Ctrl-C; whatever happens, children are stopped at exit."""
    signal.signal(signal.SIGTERM, _on_sigterm)
    # Also when started with SIGINT ignored (a background job of a script): Ctrl-C must stop.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    atexit.register(stop_all)


def run(
    argv: Sequence[str], *, timeout: float = 120, **kw: object
) -> subprocess.CompletedProcess[str]:
    """Run a short command, raising ServiceError with its output when it fails."""
    try:
        out: subprocess.CompletedProcess[str] = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            **kw,  # type: ignore[call-overload]  # kw: cwd, env
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ServiceError(f"{argv[0]} failed: {e}") from e
    if out.returncode != 0:
        raise ServiceError(
            f"{' '.join(argv)} exited {out.returncode}: {(out.stderr or out.stdout).strip()[-800:]}"
        )
    return out
