"""vigil-storage and stock VictoriaMetrics: same engine, same PromQL, different front doors."""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path
from typing import ClassVar

from ..httpconn import Http, HttpError
from ..procs import Service, ServiceError, free_port, run
from ..questions import Answer, Question
from .base import Reader, System, Unavailable, Writer, bin_dir

WORKSPACE = "bench"
# How long a query may wait for a search slot, and how many of the one workspace's may wait:
# enough for the largest concurrency level of any scenario (128 clients) to queue, not fail.
QUEUE_DURATION = "5m"
MAX_QUEUED = 1024


class _HttpWriter(Writer):
    def __init__(self, http: Http, path: str, params: dict[str, str]) -> None:
        self.http = http
        self.path = path
        self.params = params

    def write(self, payload: bytes) -> None:
        self.http.expect("POST", self.path, params=self.params, body=payload)

    def close(self) -> None:
        self.http.close()


def module_version(binary: Path) -> str:
    """The VictoriaMetrics module version a Go binary was built from (for unstamped builds)."""
    try:
        out = run(["go", "version", "-m", str(binary)], timeout=20).stdout
    except ServiceError:
        return "unknown"
    for line in out.splitlines():
        parts = line.split()
        if (
            len(parts) >= 3
            and parts[0] in ("mod", "dep")
            and parts[1] == "github.com/VictoriaMetrics/VictoriaMetrics"
        ):
            return f"victoria-metrics (module {parts[1]} {parts[2]})"
    return "unknown"


def promql_text(q: Question, name: str) -> tuple[str, dict[str, str]]:
    """The PromQL/MetricsQL for q over metric name, and the HTTP parameters to send."""
    w = q.bucket_ms // 1000
    if q.shape == "raw":
        win = (q.end_ms - q.start_ms) // 1000
        sel = f'{name}{{host="{q.host}",cpu="cpu-total"}}[{win}s]'
        return sel, {"query": sel, "time": f"{q.end_ms / 1000:.3f}"}
    if q.shape == "host_avg":
        sel = f'{name}{{host="{q.host}"}}[{w}s]'
        text = f"sum(sum_over_time({sel})) / sum(count_over_time({sel}))"
    else:
        text = f"max(max_over_time({name}[{w}s])) by (cpu)"
    return text, {
        "query": text,
        "start": f"{(q.start_ms + q.bucket_ms) / 1000:.3f}",
        "end": f"{q.end_ms / 1000:.3f}",
        "step": f"{w}s",
        "nocache": "1",
    }


def parse_prom(q: Question, body: bytes) -> Answer:
    doc = json.loads(body)
    if doc.get("status") != "success":
        raise ValueError(f"query failed: {body[:300]!r}")
    shift = 0 if q.shape == "raw" else q.bucket_ms
    out: Answer = {}
    for r in doc["data"]["result"]:
        group = r["metric"].get("cpu", "") if q.shape == "fleet_max" else ""
        pts = [(round(float(t) * 1000) - shift, float(v)) for t, v in r.get("values", [])]
        if "value" in r:
            t, v = r["value"]
            pts.append((round(float(t) * 1000) - shift, float(v)))
        out.setdefault(group, []).extend(pts)
    for g in out:
        out[g].sort()
    return out


class _PromReader(Reader):
    def __init__(self, http: Http, prefix: str, name_sep: str) -> None:
        self.http = http
        self.prefix = prefix
        self.sep = name_sep

    def fetch(self, q: Question) -> bytes:
        _, params = promql_text(q, f"cpu{self.sep}usage_user")
        path = "/api/v1/query" if q.shape == "raw" else "/api/v1/query_range"
        return self.http.expect(
            "POST",
            self.prefix + path,
            ok=(200,),
            body=_form(params),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )

    def parse(self, q: Question, raw: object) -> Answer:
        assert isinstance(raw, bytes)
        return parse_prom(q, raw)

    def close(self) -> None:
        self.http.close()


def _form(params: dict[str, str]) -> bytes:
    import urllib.parse

    return urllib.parse.urlencode(params).encode()


def dql_text(q: Question) -> str:
    w = q.bucket_ms // 1000
    if q.shape == "raw":
        return f"M::cpu:(usage_user) {{host='{q.host}', cpu='cpu-total'}} [{q.start_ms}:{q.end_ms}]"
    if q.shape == "host_avg":
        return f"M::cpu:(avg(usage_user)) {{host='{q.host}'}} [{q.start_ms}:{q.end_ms}:{w}s]"
    return f"M::cpu:(max(usage_user)) [{q.start_ms}:{q.end_ms}:{w}s] BY cpu"


def parse_dql(q: Question, body: bytes) -> Answer:
    doc = json.loads(body)
    if "content" not in doc:
        raise ValueError(f"DQL failed: {body[:300]!r}")
    out: Answer = {}
    for s in doc["content"][0].get("series") or []:
        group = (s.get("tags") or {}).get("cpu", "") if q.shape == "fleet_max" else ""
        cols = s["columns"]
        vi = 1 if len(cols) > 1 else 0
        out.setdefault(group, []).extend(
            (int(row[0]), float(row[vi])) for row in s["values"] if row[vi] is not None
        )
    for g in out:
        out[g].sort()
    return out


class _DqlReader(Reader):
    def __init__(self, http: Http, path: str) -> None:
        self.http = http
        self.path = path

    def fetch(self, q: Question) -> bytes:
        body = {
            "queries": [
                {"query": dql_text(q), "limit": 10000, "disable_slimit": True, "timeout": "60s"}
            ]
        }
        return self.http.expect(
            "POST",
            self.path,
            ok=(200,),
            body=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )

    def parse(self, q: Question, raw: object) -> Answer:
        assert isinstance(raw, bytes)
        return parse_dql(q, raw)

    def close(self) -> None:
        self.http.close()


class _VMBase(System):
    binary: str = ""
    languages: ClassVar[tuple[str, ...]] = ("promql",)
    # In-memory parts reach the disk every 5 s; seen landing 8-10 s after a force_flush.
    flush_wait_s: ClassVar[float] = 12.0

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.service: Service | None = None
        self.port = 0

    @property
    def bin(self) -> Path:
        return bin_dir() / self.binary

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def http(self) -> Http:
        return Http(self.url)

    def processes(self) -> list[tuple[str, int]]:
        return [(self.id, self.service.pid)] if self.service else []

    def stop(self) -> None:
        if self.service:
            self.service.stop()
            self.service = None

    def _flags(self) -> list[str]:
        return []

    def _ready(self) -> bool:
        status, _ = Http(self.url, timeout=2).request("GET", "/health")
        return status == 200

    def start(self) -> None:
        self.port = free_port()
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.data_dir = self.workdir / "data"
        argv = [
            str(self.bin),
            f"-httpListenAddr=127.0.0.1:{self.port}",
            f"-storageDataPath={self.data_dir}",
            "-dedup.minScrapeInterval=1ms",
            "-search.latencyOffset=1s",
            "-retentionPeriod=100y",
            "-loggerLevel=WARN",
            # a level of N concurrent queries waits for the node's search slots however long
            # they take, instead of failing the requests that waited past the default 10 s
            f"-search.maxQueueDuration={QUEUE_DURATION}",
            *self._flags(),
        ]
        self.service = Service(self.id, argv, log_path=self.workdir / f"{self.id}.log").start()
        self.service.wait_ready(self._ready, timeout=60)

    def settle(self) -> None:
        # Both expose VictoriaMetrics' force_flush: in-memory rows become searchable parts.
        self._force_flush()
        time.sleep(1.5)  # > -search.latencyOffset

    def _force_flush(self) -> None:
        self.http().expect("GET", "/internal/force_flush", ok=(200, 204))


class VigilStorage(_VMBase):
    id = "vigil-storage"
    binary = "vigil-storage"
    languages = ("dql", "promql")

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.token = secrets.token_hex(16)

    def check(self) -> None:
        if not self.bin.exists():
            raise Unavailable(f"{self.bin} is not built (make install, or make -C storage build)")
        if not self._version:
            out = run([str(self.bin), "-version"], timeout=20).stdout.strip()
            self._version = out.splitlines()[0] if out else module_version(self.bin)

    def _flags(self) -> list[str]:
        tok = self.workdir / "internal_token"
        tok.write_text(self.token)
        tok.chmod(0o600)
        # One workspace is the only tenant here, as stock VictoriaMetrics' data is: it may use
        # every search slot (the default leaves it a quarter, for the other workspaces) and
        # have as many searches waiting as the largest concurrency level sends.
        return [
            f"-tenancy.internalTokenFile={tok}",
            "-search.maxConcurrentPerWorkspace=1000",
            f"-search.maxQueuedPerWorkspace={MAX_QUEUED}",
        ]

    def http(self) -> Http:
        return Http(
            self.url,
            headers={"Authorization": f"Bearer {self.token}", "X-Vigil-Workspace": WORKSPACE},
        )

    def start(self) -> None:
        super().start()
        body = json.loads(Http(self.url).expect("GET", "/health"))
        self._version = str(body.get("version", "unknown"))

    def _force_flush(self) -> None:
        try:
            self.http().expect("GET", "/internal/force_flush", ok=(200, 204))
        except HttpError as e:
            if e.status != 404:
                raise
            # Without the flush endpoint, rows become searchable within ~1-2 s anyway.
            time.sleep(2)

    def writer(self) -> Writer:
        return _HttpWriter(self.http(), "/internal/v1/write/line", {"precision": "ms"})

    def reader(self, language: str) -> Reader:
        if language == "dql":
            return _DqlReader(self.http(), "/v1/query/raw")
        if language == "promql":
            return _PromReader(self.http(), "", ":")
        return super().reader(language)

    def native(self, q: Question, language: str) -> str:
        if language == "dql":
            return dql_text(q)
        if language == "promql":
            return promql_text(q, "cpu:usage_user")[0]
        return super().native(q, language)


class VictoriaMetrics(_VMBase):
    id = "victoriametrics"
    binary = "victoria-metrics"

    def check(self) -> None:
        if not self.bin.exists():
            raise Unavailable(f"{self.bin} is not built (run bench/install.sh vm)")
        if not self._version:
            out = run([str(self.bin), "-version"], timeout=20)
            self._version = (
                out.stdout.strip().splitlines()[0]
                if out.stdout.strip()
                else module_version(self.bin)
            )

    def writer(self) -> Writer:
        return _HttpWriter(self.http(), "/write", {"precision": "ms"})

    def reader(self, language: str) -> Reader:
        if language == "promql":
            return _PromReader(self.http(), "", "_")
        return super().reader(language)

    def native(self, q: Question, language: str) -> str:
        if language == "promql":
            return promql_text(q, "cpu_usage_user")[0]
        return super().native(q, language)
