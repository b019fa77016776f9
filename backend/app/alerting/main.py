"""vigil-alerting: the evaluator service.

    vigil-alerting [--port 8003] [--workers N]

Runs next to the backend (same package, same database, same scoped storage client):

1. worker threads claim due monitors and recording rules and evaluate them (``scheduler``,
   ``recording``); any number of processes may run, each monitor is evaluated by one at a time;
2. a dispatcher thread sends the notification outbox (``dispatch``), woken at once when an
   evaluation wrote notifications;
3. a housekeeper deletes alert history older than ``VIGIL_ALERTING_HISTORY_DAYS``;
4. an HTTP server on loopback answers ``GET /health`` and ``GET /metrics`` (Prometheus).

SIGTERM stops taking work, lets running evaluations finish and exits.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest
from sqlalchemy import delete, func, select, text

from app.alerting import dispatch, recording, scheduler
from app.clients.storage import StorageClient
from app.core.config import settings
from app.core.db import get_sessionmaker
from app.core.logging import setup_logging
from app.models import AlertEvent, Monitor, Notification
from app.services import limits

log = logging.getLogger("vigil.alerting")

EVALUATIONS = Counter("vigil_alerting_evaluations_total", "Monitor evaluations", ["outcome"])
GROUPS = Counter("vigil_alerting_group_evaluations_total", "Groups evaluated")
TRANSITIONS = Counter("vigil_alerting_transitions_total", "Alert events written")
EVAL_SECONDS = Histogram(
    "vigil_alerting_evaluation_seconds",
    "Time to evaluate one monitor",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
LAG_SECONDS = Histogram(
    "vigil_alerting_schedule_lag_seconds",
    "How late an evaluation started after it was due",
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300),
)
RULE_RUNS = Counter("vigil_alerting_recording_runs_total", "Recording rule runs", ["outcome"])
NOTIFICATIONS = Counter("vigil_alerting_notifications_total", "Notifications sent", ["status"])
LOOP_ERRORS = Counter("vigil_alerting_loop_errors_total", "Unexpected errors in a loop", ["loop"])
OVERDUE = Gauge("vigil_alerting_overdue_seconds", "How far the most overdue monitor is behind")
HOUSEKEEPING_LOCK = 0x76_69_67_69_6C_01  # pg advisory lock: one housekeeper at a time


class Service:
    def __init__(self, workers: int) -> None:
        self.stop = threading.Event()
        self.wake_dispatch = threading.Event()
        self.workers = workers
        self.storage = StorageClient(
            base_url=settings.STORAGE_URL,
            internal_token=settings.INTERNAL_TOKEN,
            timeout=settings.STORAGE_TIMEOUT_SECONDS,
        )
        self.sessions = get_sessionmaker()
        self.beats: dict[str, float] = {}
        self.started = time.time()

    # --- loops -------------------------------------------------------------------------------
    def _loop(
        self, name: str, body: Callable[[], float], wake: threading.Event | None = None
    ) -> None:
        """Run ``body`` until stopped; it returns how long to wait before the next round,
        which ``wake`` (when given) cuts short."""
        while not self.stop.is_set():
            try:
                pause = body()
            except Exception:
                LOOP_ERRORS.labels(name).inc()
                log.exception("%s: unexpected error; retrying in 1 s", name)
                pause = 1.0
            self.beats[name] = time.time()
            if pause > 0:
                (wake or self.stop).wait(pause)
                if wake is not None:
                    wake.clear()

    def evaluator(self, name: str) -> None:
        with self.sessions() as db, self.sessions() as qdb:

            def round_() -> float:
                worked = False
                result = scheduler.run_once(db, qdb, self.storage)
                if result is not None:
                    worked = True
                    EVALUATIONS.labels("error" if result.error else "ok").inc()
                    GROUPS.inc(result.groups)
                    TRANSITIONS.inc(result.transitions)
                    EVAL_SECONDS.observe(result.seconds)
                    LAG_SECONDS.observe(max(0.0, result.lag_seconds))
                    if result.notifications:
                        self.wake_dispatch.set()
                run = recording.run_once(db, qdb, self.storage)
                if run is not None:
                    worked = True
                    RULE_RUNS.labels("error" if run.error else "ok").inc()
                if worked:
                    return 0.0
                due = scheduler.next_due(db)
                db.rollback()
                now = datetime.now(UTC)
                OVERDUE.set(max(0.0, (now - due).total_seconds()) if due else 0.0)
                wait = (due - now).total_seconds() if due else 1.0
                return min(max(wait, 0.05), 1.0)

            self._loop(name, round_)

    def dispatcher(self) -> None:
        with self.sessions() as db:

            def round_() -> float:
                sent = dispatch.send_due(db)
                for s in sent:
                    NOTIFICATIONS.labels(s.status).inc()
                return 0.0 if len(sent) >= 100 else 1.0

            self._loop("dispatcher", round_, self.wake_dispatch)

    def housekeeper(self) -> None:
        def round_() -> float:
            with self.sessions() as db:
                got = db.scalar(select(func.pg_try_advisory_xact_lock(HOUSEKEEPING_LOCK)))
                if got:
                    cutoff = datetime.now(UTC) - timedelta(days=settings.ALERTING_HISTORY_DAYS)
                    db.execute(delete(Notification).where(Notification.created_at < cutoff))
                    db.execute(delete(AlertEvent).where(AlertEvent.at < cutoff))
                db.commit()
                with self.sessions() as counter_db:
                    limits.query_counter.flush(counter_db)
            return 3600.0

        self._loop("housekeeper", round_)

    # --- health --------------------------------------------------------------------------------
    def health(self) -> dict[str, Any]:
        now = time.time()
        stale = [n for n, t in self.beats.items() if n != "housekeeper" and now - t > 15]
        body: dict[str, Any] = {"status": "ok", "workers": self.workers, "stale_loops": stale}
        try:
            with self.sessions() as db:
                db.execute(text("SET LOCAL statement_timeout = 2000"))
                due = db.scalar(
                    select(func.count())
                    .select_from(Monitor)
                    .where(
                        Monitor.enabled,
                        Monitor.next_eval_at <= func.now() - text("interval '5 seconds'"),
                    )
                )
                pending = db.scalar(
                    select(func.count())
                    .select_from(Notification)
                    .where(
                        Notification.status == "pending", Notification.next_attempt_at <= func.now()
                    )
                )
            body.update(monitors_overdue=int(due or 0), notifications_due=int(pending or 0))
        except Exception as exc:  # noqa: BLE001 - reported as the health answer
            body.update(status="degraded", error=f"database: {type(exc).__name__}")
        if stale or len(self.beats) < self.workers + 1 and now - self.started > 15:
            body["status"] = "degraded"
        return body

    def serve_http(self, host: str, port: int) -> ThreadingHTTPServer:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                if self.path == "/health":
                    body = service.health()
                    raw = json.dumps(body).encode()
                    self._send(200 if body["status"] == "ok" else 503, "application/json", raw)
                elif self.path == "/metrics":
                    self._send(200, CONTENT_TYPE_LATEST, generate_latest())
                else:
                    self._send(404, "application/json", b'{"detail":"not found"}')

            def _send(self, status: int, ctype: str, raw: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

        server = ThreadingHTTPServer((host, port), Handler)
        threading.Thread(target=server.serve_forever, name="http", daemon=True).start()
        return server

    # --- lifecycle -----------------------------------------------------------------------------
    def run(self, host: str, port: int) -> None:
        server = self.serve_http(host, port)
        threads = [
            threading.Thread(target=self.evaluator, args=(f"evaluator-{i}",), name=f"evaluator-{i}")
            for i in range(self.workers)
        ]
        threads.append(threading.Thread(target=self.dispatcher, name="dispatcher"))
        threads.append(threading.Thread(target=self.housekeeper, name="housekeeper", daemon=True))
        for t in threads:  # every loop's error count exists from the start, at 0
            LOOP_ERRORS.labels(t.name)
        EVALUATIONS.labels("error")
        for t in threads:
            t.start()
        log.info(
            "vigil-alerting: %d workers, health on http://%s:%d/health", self.workers, host, port
        )
        self.stop.wait()
        log.info("vigil-alerting: stopping")
        self.wake_dispatch.set()
        for t in threads:
            if not t.daemon:
                t.join(timeout=60)
        server.shutdown()
        with self.sessions() as db:
            limits.query_counter.flush(db)
        self.storage.close()


_SETTINGS = (
    "ALERTING_URL",
    "ALERTING_WORKERS",
    "ALERTING_MAX_GROUPS",
    "ALERTING_NOTIFY_MAX_ATTEMPTS",
    "ALERTING_NOTIFY_BACKOFF_SECONDS",
    "ALERTING_WEBHOOK_TIMEOUT_SECONDS",
    "ALERTING_WEBHOOK_ALLOW_HOSTS",
    "ALERTING_HISTORY_DAYS",
    "DATABASE_URL",
    "STORAGE_URL",
    "STORAGE_TIMEOUT_SECONDS",
    "INTERNAL_TOKEN",
    "PUBLIC_URL",
    "SMTP_HOST",
    "SMTP_PORT",
    "SMTP_SECURITY",
    "SMTP_FROM",
    "LOG_FORMAT",
    "HOME",
)


def _settings_help() -> str:
    """``VIGIL_<NAME>  default`` for the settings this service reads."""
    lines = ["settings (environment variables):"]
    for name in _SETTINGS:
        default = type(settings).model_fields[name].default
        shown = "unset" if default in (None, "") else str(default)
        lines.append(f"  VIGIL_{name:<36} {shown}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="vigil-alerting",
        description="Evaluate monitors and recording rules, and send notifications. Any number "
        "of copies may run against one database; each event is sent once. GET /health and "
        "GET /metrics (Prometheus) are served on --host:--port.",
        epilog=_settings_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    default_port = int(settings.ALERTING_URL.rsplit(":", 1)[-1].split("/")[0] or 8003)
    parser.add_argument("--host", default="127.0.0.1", help="address of /health and /metrics")
    parser.add_argument(
        "--port", type=int, default=default_port, help="default: from VIGIL_ALERTING_URL"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=settings.ALERTING_WORKERS,
        help="monitors evaluated at once (VIGIL_ALERTING_WORKERS)",
    )
    args = parser.parse_args(argv)
    setup_logging()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per query is noise here
    service = Service(args.workers)
    signal.signal(signal.SIGTERM, lambda *_: service.stop.set())
    signal.signal(signal.SIGINT, lambda *_: service.stop.set())
    service.run(args.host, args.port)


if __name__ == "__main__":
    main()
