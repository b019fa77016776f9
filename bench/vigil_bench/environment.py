"""Capture of the machine a run happened on."""

from __future__ import annotations

import os
import platform
import shutil
import socket
import subprocess

import psutil

from .schema import Environment


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _os_name() -> str:
    try:
        with open("/etc/os-release", encoding="utf-8") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.system()


def glibc_version() -> str:
    """The C library version this process runs on (what `ldd --version` prints first)."""
    lib, version = platform.libc_ver()
    if lib == "glibc" and version:
        return version
    try:
        return os.confstr("CS_GNU_LIBC_VERSION") or "unknown"
    except (ValueError, OSError):
        return "unknown"


def _go_version() -> str | None:
    go = shutil.which("go")
    if not go:
        return None
    try:
        out = subprocess.run([go, "version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def capture(system_versions: dict[str, str] | None = None) -> Environment:
    return Environment(
        hostname=socket.gethostname(),
        cpu_model=_cpu_model(),
        cpu_count=os.cpu_count() or 1,
        cpu_physical_cores=psutil.cpu_count(logical=False),
        memory_bytes=psutil.virtual_memory().total,
        kernel=platform.release(),
        os=_os_name(),
        glibc=glibc_version(),
        python=platform.python_version(),
        go=_go_version(),
        system_versions=dict(system_versions or {}),
    )
