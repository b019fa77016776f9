"""InfluxDB 1.8 with the tsi1 index and series limits lifted; InfluxQL."""

from __future__ import annotations

import json
import time
from pathlib import Path

from ..httpconn import Http
from ..procs import Service, free_port, run
from ..questions import Answer, Question
from .base import Reader, System, Unavailable, Writer, bin_dir

DB = "bench"

CONFIG = """\
reporting-disabled = true
bind-address = "127.0.0.1:{rpc_port}"

[meta]
  dir = "{dir}/meta"

[data]
  dir = "{dir}/data"
  wal-dir = "{dir}/wal"
  index-version = "tsi1"
  max-series-per-database = 0
  max-values-per-tag = 0
  query-log-enabled = false
  # Snapshot the write cache to TSM files soon after writes stop, so that the disk
  # footprint is measured on compressed files rather than on the WAL.
  cache-snapshot-write-cold-duration = "2s"
  compact-full-write-cold-duration = "10s"

[coordinator]
  query-timeout = "60s"
  # A batch that creates thousands of series can take longer than the default 10 s on two
  # shared cores once a million series exist: it is timed, not refused.
  write-timeout = "60s"

[retention]
  enabled = false

[monitor]
  store-enabled = false

[http]
  bind-address = "127.0.0.1:{port}"
  log-enabled = false
  max-body-size = 0
  max-row-limit = 0
  max-connection-limit = 0
  flux-enabled = false

[logging]
  level = "warn"

[continuous_queries]
  enabled = false

[subscriber]
  enabled = false
"""


def influxql_text(q: Question) -> str:
    where = f"time >= {q.start_ms}ms AND time < {q.end_ms}ms"
    if q.shape == "raw":
        return (
            f"SELECT usage_user FROM cpu WHERE host = '{q.host}' AND cpu = 'cpu-total' AND {where}"
        )
    if q.shape == "host_avg":
        return (
            f"SELECT mean(usage_user) FROM cpu WHERE host = '{q.host}' AND {where}"
            f" GROUP BY time({q.bucket_ms}ms) fill(none)"
        )
    return (
        f"SELECT max(usage_user) FROM cpu WHERE {where}"
        f' GROUP BY time({q.bucket_ms}ms), "cpu" fill(none)'
    )


def parse_influx(q: Question, body: bytes) -> Answer:
    doc = json.loads(body)
    res = doc.get("results", [{}])[0]
    if "error" in res or "error" in doc:
        raise ValueError(f"InfluxQL failed: {res.get('error') or doc.get('error')}")
    out: Answer = {}
    for s in res.get("series") or []:
        group = (s.get("tags") or {}).get("cpu", "") if q.shape == "fleet_max" else ""
        out.setdefault(group, []).extend(
            (int(row[0]), float(row[1])) for row in s["values"] if row[1] is not None
        )
    for g in out:
        out[g].sort()
    return out


class _Writer(Writer):
    def __init__(self, http: Http) -> None:
        self.http = http

    def write(self, payload: bytes) -> None:
        self.http.expect("POST", "/write", params={"db": DB, "precision": "ms"}, body=payload)

    def close(self) -> None:
        self.http.close()


class _Reader(Reader):
    def __init__(self, http: Http) -> None:
        self.http = http

    def fetch(self, q: Question) -> bytes:
        return self.http.expect(
            "POST",
            "/query",
            ok=(200,),
            params={"db": DB, "epoch": "ms", "q": influxql_text(q)},
        )

    def parse(self, q: Question, raw: object) -> Answer:
        assert isinstance(raw, bytes)
        return parse_influx(q, raw)

    def close(self) -> None:
        self.http.close()


class InfluxDB(System):
    id = "influxdb"
    languages = ("influxql",)

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.service: Service | None = None
        self.port = 0

    @property
    def bin(self) -> Path:
        return bin_dir() / "influxd"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def check(self) -> None:
        if not self.bin.exists():
            raise Unavailable(f"{self.bin} is not built (run bench/install.sh influxdb)")
        if not self._version:
            self._version = run([str(self.bin), "version"], timeout=20).stdout.strip()

    def start(self) -> None:
        self.port = free_port()
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.data_dir = self.workdir / "data"
        cfg = self.workdir / "influxdb.conf"
        cfg.write_text(CONFIG.format(dir=self.data_dir, port=self.port, rpc_port=free_port()))
        self.service = Service(
            self.id,
            [str(self.bin), "run", "-config", str(cfg)],
            log_path=self.workdir / "influxd.log",
        ).start()

        def ready() -> bool:
            status, _ = Http(self.url, timeout=2).request("GET", "/ping")
            return status == 204

        self.service.wait_ready(ready, timeout=60)
        Http(self.url).expect("POST", "/query", ok=(200,), params={"q": f"CREATE DATABASE {DB}"})

    def stop(self) -> None:
        if self.service:
            self.service.stop()
            self.service = None

    def processes(self) -> list[tuple[str, int]]:
        return [(self.id, self.service.pid)] if self.service else []

    def writer(self) -> Writer:
        return _Writer(Http(self.url))

    def reader(self, language: str) -> Reader:
        if language == "influxql":
            return _Reader(Http(self.url))
        return super().reader(language)

    def native(self, q: Question, language: str) -> str:
        if language == "influxql":
            return influxql_text(q)
        return super().native(q, language)

    def settle(self) -> None:
        # Writes are queryable on acknowledgement; wait for the cache snapshot so the data
        # directory holds TSM files (bounded: the WAL shrinks once the snapshot is written).
        assert self.data_dir is not None
        wal = self.data_dir / "wal"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            sizes = [p.stat().st_size for p in wal.rglob("*.wal")] if wal.exists() else []
            if sum(sizes) < 64 * 1024:
                break
            time.sleep(0.5)
