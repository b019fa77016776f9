from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from vigil_bench.agent import parse_summary
from vigil_bench.procs import Service, ServiceError, free_port, stack_port, stop_all

TREE = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); time.sleep(60)"


def test_stop_kills_the_whole_process_group(tmp_path: Path) -> None:
    s = Service("tree", [sys.executable, "-c", TREE], log_path=tmp_path / "tree.log").start()
    deadline = time.monotonic() + 10
    while not psutil.Process(s.pid).children() and time.monotonic() < deadline:
        time.sleep(0.05)
    child = psutil.Process(s.pid).children()[0]
    s.stop(timeout=5)
    assert not s.alive()
    child.wait(5)
    assert not child.is_running() or child.status() == psutil.STATUS_ZOMBIE


def test_stop_all_stops_what_was_started(tmp_path: Path) -> None:
    s = Service(
        "sleeper",
        [sys.executable, "-c", "import time; time.sleep(60)"],
        log_path=tmp_path / "s.log",
    ).start()
    stop_all()
    assert not s.alive()


def test_wait_ready_reports_a_dead_process_with_its_log(tmp_path: Path) -> None:
    s = Service(
        "dies",
        [sys.executable, "-c", "print('bad flag -x'); raise SystemExit(3)"],
        log_path=tmp_path / "d.log",
    ).start()
    with pytest.raises(
        ServiceError, match="dies exited with status 3 while starting; last log lines:\nbad flag -x"
    ):
        s.wait_ready(lambda: False, timeout=10)
    s.stop()


def test_agent_summary_is_parsed() -> None:
    text = (
        "vigil-agent 2026/11/21 simulating...\n"
        "simulate: 10 hosts x 1383 series, 37 ticks (2026-11-21T05:40:40Z .. 2026-11-21T05:46:40Z) in 0.40s:"
        " generated 500646 points (28236 lines, 10.8 MB raw, 3.9 MB gzip) = 1248886 points/s, 70436 lines/s,"
        " 27.0 MB/s raw; sent 500646 points in 73 batches, 0 send errors, 0 points dropped\n"
    )
    s = parse_summary(text)
    assert s == {
        "hosts": 10,
        "series": 1383,
        "ticks": 37,
        "secs": 0.40,
        "points": 500646,
        "lines": 28236,
        "sent": 500646,
        "batches": 73,
        "errors": 0,
        "dropped": 0,
        "first": 1795239640.0,
        "last": 1795240000.0,
    }
    assert parse_summary("no summary here") is None


RUNNER = r"""
import sys, time
from pathlib import Path
from vigil_bench import procs
procs.install_signal_handlers()
s = procs.Service("sleeper", [sys.executable, "-c", "import time; time.sleep(60)"],
                  log_path=Path(sys.argv[1])).start()
try:
    print(s.pid, flush=True)
    time.sleep(60)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_stop_every_child(tmp_path: Path, sig: int) -> None:
    # SIGINT is ignored in background jobs of scripts; the runner must still stop on it.
    p = subprocess.Popen(
        [sys.executable, "-c", RUNNER, str(tmp_path / "l.log")],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert p.stdout is not None
    child = psutil.Process(int(p.stdout.readline()))
    p.send_signal(sig)
    assert p.stdout.readline().strip() == "interrupted"
    assert p.wait(15) == 0
    child.wait(5)
    assert not child.is_running()


def test_free_ports_stay_out_of_the_stacks_port_blocks() -> None:
    # make up (8000-8482, 55432, 59092), make test (18xxx, 15432, 19092), moved stacks
    for port in (8000, 8482, 55432, 59092, 59093, 18000, 18482, 15432, 19092, 28001, 38482):
        assert stack_port(port), port
    for port in (33333, 40123, 47999, 50000, 60999):
        assert not stack_port(port), port
    ports = [free_port() for _ in range(300)]
    assert not [p for p in ports if stack_port(p)]


def test_free_ports_are_never_ones_a_client_connection_could_take_and_never_repeat() -> None:
    # Outgoing connections draw their local port from the ephemeral range: a server port found
    # free there may be taken before the server binds it ("address already in use").
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    ports = [free_port() for _ in range(300)]
    assert all(1024 <= p < low for p in ports), [p for p in ports if not 1024 <= p < low]
    assert len(set(ports)) == len(ports)
    with socket.socket() as s:  # and each is free to bind
        s.bind(("127.0.0.1", ports[-1]))
