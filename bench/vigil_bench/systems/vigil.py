"""The full Vigil path, gateway -> Kafka -> consumer -> vigil-storage, of a running stack.

The runner does not start this one: it uses the stack ``make up`` started (addresses from
``VIGIL_BACKEND_URL``/``VIGIL_GATEWAY_URL``/``VIGIL_STORAGE_URL``/``VIGIL_CONSUMER_URL``, the
internal token from ``$VIGIL_HOME/internal_token``). Each session signs in as the demo user
(``$VIGIL_HOME/demo.env``), creates a throw-away workspace with an ingest key, and deletes it
with its series when it ends (``VIGIL_BENCH_KEEP=1`` keeps it), so benchmark runs do not pile
series up in the demo workspace; ``VIGIL_BENCH_WORKSPACE`` with ``VIGIL_BENCH_INGEST_KEY`` use
a workspace kept for benchmarks instead. Writes enter through the gateway with the ingest key,
exactly as an agent's do; a write is complete when the consumer's lag is back to zero, and
reads go to the stack's storage.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from pathlib import Path

from .. import procs
from ..httpconn import Http, HttpError
from ..progress import log
from ..questions import Question
from .base import Reader, System, Unavailable, Writer, backend_url, read_env_file, vigil_home
from .vm import _DqlReader, _PromReader, dql_text, promql_text


class _GatewayWriter(Writer):
    def __init__(self, http: Http) -> None:
        self.http = http

    def write(self, payload: bytes) -> None:
        self.http.expect("POST", "/v1/write/metric", params={"precision": "ms"}, body=payload)

    def close(self) -> None:
        self.http.close()


class VigilStack(System):
    id = "vigil"
    languages = ("dql", "promql")

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        home = vigil_home()
        self.backend_url = backend_url()
        self.gateway_url = os.environ.get("VIGIL_GATEWAY_URL", "http://127.0.0.1:8001")
        self.storage_url = os.environ.get("VIGIL_STORAGE_URL", "http://127.0.0.1:8482")
        self.consumer_url = os.environ.get("VIGIL_CONSUMER_URL", "http://127.0.0.1:8002")
        self.demo_env = home / "demo.env"
        self.token_file = home / "internal_token"
        self.run_dir = home / "run"
        self.ingest_key = ""
        self.workspace = ""
        self.token = ""
        # the throw-away workspace this session created: (session token, id, name)
        self._created: tuple[str, str, str] | None = None
        # processes a scenario started beside the stack's own (sampled with them), and the
        # status URLs of the consumers among them (their written points count too)
        self.added: list[tuple[str, int]] = []
        self.added_consumers: list[str] = []

    def check(self) -> None:
        if not self.demo_env.exists():
            raise Unavailable(f"the stack is not up: {self.demo_env} is missing (run make up)")
        env = read_env_file(self.demo_env)
        key = os.environ.get("VIGIL_BENCH_INGEST_KEY", "")
        ws = os.environ.get("VIGIL_BENCH_WORKSPACE", "")
        if bool(key) != bool(ws):
            raise Unavailable(
                "set both VIGIL_BENCH_INGEST_KEY and VIGIL_BENCH_WORKSPACE, or neither"
            )
        self._kept: tuple[str, str] | None = (key, ws) if key else None
        self._demo = env.get("VIGIL_DEMO_EMAIL", ""), env.get("VIGIL_DEMO_PASSWORD", "")
        if not self._kept and not all(self._demo):
            raise Unavailable(f"{self.demo_env} lacks VIGIL_DEMO_EMAIL or VIGIL_DEMO_PASSWORD")
        self.token = os.environ.get("VIGIL_INTERNAL_TOKEN") or (
            self.token_file.read_text().strip() if self.token_file.exists() else ""
        )
        if not self.token:
            raise Unavailable(f"no internal token ({self.token_file}) to read back from storage")
        for name, url in (
            ("backend", self.backend_url),
            ("gateway", self.gateway_url),
            ("storage", self.storage_url),
            ("consumer", self.consumer_url),
        ):
            try:
                status, body = Http(url, timeout=3).request("GET", "/health")
            except OSError as e:
                raise Unavailable(
                    f"the stack is not up: {name} at {url} unreachable ({e}); run make up"
                ) from None
            if status != 200:
                raise Unavailable(
                    f"the stack is not healthy: {name} at {url} answered {status}: {body[:200]!r}"
                )
            if name == "storage":
                self._version = "vigil " + str(json.loads(body).get("version", "?"))
        storage_data = vigil_home() / "data" / "storage"
        self.data_dir = storage_data if storage_data.is_dir() else None

    def start(self) -> None:
        self.check()
        if self._kept:
            self.ingest_key, self.workspace = self._kept
            return
        api = Http(self.backend_url, headers={"Content-Type": "application/json"})
        try:
            session = self._login(api)
            auth = {"Authorization": f"Bearer {session}"}
            name = f"bench {time.strftime('%Y%m%dT%H%M%S')} {secrets.token_hex(3)}"
            body = api.expect(
                "POST",
                "/api/v1/workspaces",
                ok=(201,),
                body=json.dumps({"name": name}).encode(),
                headers=auth,
            )
            ws = json.loads(body)["id"]
            self._created = (session, ws, name)
            body = api.expect(
                "POST",
                f"/api/v1/workspaces/{ws}/keys",
                ok=(201,),
                body=json.dumps({"name": "bench", "scope": "ingest"}).encode(),
                headers=auth,
            )
            self.ingest_key, self.workspace = json.loads(body)["key"], ws
        except Exception:
            self.stop()
            raise
        finally:
            api.close()

    def _login(self, api: Http) -> str:
        """A session token of the demo user."""
        email, password = self._demo
        body = api.expect(
            "POST",
            "/api/v1/auth/login",
            ok=(200,),
            body=json.dumps({"email": email, "password": password}).encode(),
        )
        return str(json.loads(body)["access_token"])

    def stop(self) -> None:
        """Deletes the throw-away workspace and its series (kept with VIGIL_BENCH_KEEP=1)."""
        created, self._created = self._created, None
        if created is None:
            return
        session, ws, name = created
        if os.environ.get("VIGIL_BENCH_KEEP"):
            log(f"kept the benchmark workspace {name!r} ({ws}): VIGIL_BENCH_KEEP")
            return
        api = Http(self.backend_url, headers={"Content-Type": "application/json"})

        def delete(token: str) -> None:
            api.expect(
                "DELETE",
                f"/api/v1/workspaces/{ws}",
                ok=(200,),
                body=json.dumps({"confirm_name": name}).encode(),
                headers={"Authorization": f"Bearer {token}"},
            )

        try:
            try:
                delete(session)
            except HttpError as e:
                if e.status != 401:
                    raise
                delete(self._login(api))  # the session expired during a long run
        except (OSError, HttpError) as e:
            log(f"could not delete the benchmark workspace {name!r} ({ws}): {e}")
        finally:
            api.close()

    def processes(self) -> list[tuple[str, int]]:
        out = []
        for svc in ("gateway", "kafka", "consumer", "storage"):
            f = self.run_dir / f"{svc}.pid"
            try:
                out.append((f"vigil/{svc}", int(f.read_text().split()[0])))
            except (OSError, ValueError, IndexError):
                continue
        # storage last: the sampler measures the data dir with the last process
        return out[:-1] + [(f"vigil/{n}", pid) for n, pid in self.added] + out[-1:]

    def start_copy(
        self, service: str, port_var: str, workdir: Path, env: dict[str, str] | None = None
    ) -> tuple[procs.Service, str]:
        """Another process of one of the stack's services (``gateway``, ``consumer``): its
        command line and environment read from ``/proc`` of the running one, ``env`` on top,
        listening on a free port set in ``port_var``; returns it, started, and its URL."""
        pid = int((self.run_dir / f"{service}.pid").read_text().split()[0])
        raw = Path(f"/proc/{pid}/environ").read_bytes()
        full = dict(
            kv.split("=", 1) for kv in raw.decode(errors="replace").split("\0") if "=" in kv
        )
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").decode().split("\0")
        port = procs.free_port()
        full.update(env or {})
        full[port_var] = str(port)
        name = f"{service}-{port}"
        svc = procs.Service(name, argv, log_path=workdir / f"{name}.log", env=full).start()
        url = f"http://127.0.0.1:{port}"

        def ready() -> bool:
            status, _ = Http(url, timeout=2).request("GET", "/health")
            return status == 200

        svc.wait_ready(ready, timeout=60)
        return svc, url

    def storage_http(self) -> Http:
        return Http(
            self.storage_url,
            headers={"Authorization": f"Bearer {self.token}", "X-Vigil-Workspace": self.workspace},
        )

    def writer(self) -> Writer:
        return _GatewayWriter(
            Http(self.gateway_url, headers={"Authorization": f"Token {self.ingest_key}"})
        )

    def consumer_lag(self) -> int:
        body = Http(self.consumer_url, timeout=5).expect("GET", "/health", ok=(200, 503))
        return int(json.loads(body).get("lag", 0) or 0)

    def consumer_lines(self, url: str | None = None) -> float:
        """Lines written to storage by the consumer at ``url`` since it started (its own
        counter), or, without ``url``, by the stack's consumer and those a scenario added."""
        if url is None:
            return sum(self.consumer_lines(u) for u in [self.consumer_url, *self.added_consumers])
        body = Http(url, timeout=5).expect("GET", "/metrics", ok=(200,))
        total = 0.0
        for line in body.decode().splitlines():
            if line.startswith("vigil_consumer_points_total"):
                total += float(line.rsplit(" ", 1)[1])
        return total

    def wait_written(self, before: float, lines: int, timeout: float = 600) -> float:
        """Monotonic time at which the consumer had written `lines` more lines than `before`.

        The consumer counts a batch only after storage acknowledged it, so this is the moment
        the whole load is in storage. (Its lag gauge is refreshed every few seconds only.)
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            t = time.monotonic()
            if self.consumer_lines() >= before + lines:
                return t
            time.sleep(0.05)
        raise TimeoutError(
            f"the consumer wrote {self.consumer_lines() - before:.0f} of {lines} lines within {timeout:.0f} s"
        )

    def wait_drained(self, timeout: float = 300) -> float:
        """Monotonic time at which the consumer lag was first seen back at zero."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            t = time.monotonic()
            if self.consumer_lag() == 0:
                return t
            time.sleep(0.05)
        raise TimeoutError(f"consumer lag still {self.consumer_lag()} after {timeout:.0f} s")

    def settle(self, timeout: float = 300) -> None:
        """Wait until the consumer has written everything Kafka holds, and it is queryable."""
        self.wait_drained(timeout)
        time.sleep(1.5)  # > storage -search.latencyOffset

    def reader(self, language: str) -> Reader:
        if language == "dql":
            return _DqlReader(self.storage_http(), "/v1/query/raw")
        if language == "promql":
            return _PromReader(self.storage_http(), "", ":")
        return super().reader(language)

    def native(self, q: Question, language: str) -> str:
        if language == "dql":
            return dql_text(q)
        if language == "promql":
            return promql_text(q, "cpu:usage_user")[0]
        return super().native(q, language)
