"""PostgreSQL: the plain-SQL baseline — one narrow points table with a (series, time) index."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
from pathlib import Path

import psycopg

from ..datagen import Dataset, series_copy_rows
from ..procs import Service, ServiceError, free_port, run
from ..questions import Answer, Question
from .base import Reader, System, Unavailable, Writer

# the newest Debian server binaries (Debian 12 ships 15, Debian 13 ships 17), unless named
PG_BIN = Path(
    os.environ.get("VIGIL_BENCH_PG_BIN")
    or os.environ.get("VIGIL_PG_BIN")
    or max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), default="")
)

SCHEMA = """
CREATE TABLE series (
    id integer PRIMARY KEY,
    measurement text NOT NULL,
    field text NOT NULL,
    tags jsonb NOT NULL
);
CREATE INDEX series_measurement_field ON series (measurement, field);
CREATE INDEX series_tags ON series USING gin (tags jsonb_path_ops);
CREATE TABLE points (
    series_id integer NOT NULL,
    ts timestamptz NOT NULL,
    value double precision NOT NULL
);
CREATE INDEX points_series_ts ON points (series_id, ts);
"""


def sql_text(q: Question) -> str:
    rng = (
        f"p.ts >= to_timestamp({q.start_ms} / 1000.0) AND p.ts < to_timestamp({q.end_ms} / 1000.0)"
    )
    bucket = f"(floor(extract(epoch FROM p.ts) * 1000 / {q.bucket_ms}) * {q.bucket_ms})::bigint"
    if q.shape == "raw":
        return (
            "SELECT (extract(epoch FROM p.ts) * 1000)::bigint AS t, p.value FROM points p"
            " WHERE p.series_id = (SELECT id FROM series WHERE measurement = 'cpu'"
            f' AND field = \'usage_user\' AND tags @> \'{{"host": "{q.host}", "cpu": "cpu-total"}}\')'
            f" AND {rng} ORDER BY p.ts"
        )
    if q.shape == "host_avg":
        return (
            f"SELECT {bucket} AS t, avg(p.value) FROM points p"
            " WHERE p.series_id IN (SELECT id FROM series WHERE measurement = 'cpu'"
            f" AND field = 'usage_user' AND tags @> '{{\"host\": \"{q.host}\"}}')"
            f" AND {rng} GROUP BY 1 ORDER BY 1"
        )
    return (
        f"SELECT s.tags->>'cpu' AS cpu, {bucket} AS t, max(p.value) FROM points p"
        " JOIN series s ON s.id = p.series_id"
        f" WHERE s.measurement = 'cpu' AND s.field = 'usage_user' AND {rng}"
        " GROUP BY 1, 2 ORDER BY 1, 2"
    )


class _Writer(Writer):
    def __init__(self, dsn: str) -> None:
        self.conn = psycopg.connect(dsn, autocommit=True)

    def write(self, payload: bytes) -> None:
        with (
            self.conn.cursor() as cur,
            cur.copy("COPY points (series_id, ts, value) FROM STDIN") as cp,
        ):
            cp.write(payload)

    def close(self) -> None:
        self.conn.close()


class _Reader(Reader):
    def __init__(self, dsn: str) -> None:
        # A query over 60 s counts as failed; cut it off a little after that.
        self.conn = psycopg.connect(dsn, autocommit=True, options="-c statement_timeout=65000")

    def fetch(self, q: Question) -> list[tuple[object, ...]]:
        with self.conn.cursor() as cur:
            cur.execute(sql_text(q).encode())
            return cur.fetchall()

    def parse(self, q: Question, raw: object) -> Answer:
        assert isinstance(raw, list)
        out: Answer = {}
        for row in raw:
            if q.shape == "fleet_max":
                g, t, v = row
            else:
                g, (t, v) = "", row
            out.setdefault(str(g or ""), []).append((int(t), float(v)))
        for g in out:
            out[g].sort()
        return out

    def close(self) -> None:
        self.conn.close()


class Postgres(System):
    id = "postgres"
    languages = ("sql",)
    payload_format = "copy"

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.service: Service | None = None
        self.port = 0
        self._prepared: set[tuple[int, int, str]] = set()

    @property
    def dsn(self) -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres"

    def check(self) -> None:
        if not (PG_BIN / "postgres").exists():
            raise Unavailable(
                f"PostgreSQL binaries not found in {PG_BIN} (apt-get install postgresql)"
            )
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable(
                    "running as root but there is no 'postgres' OS user to run initdb"
                ) from None
            if not shutil.which("runuser"):
                raise Unavailable("running as root but runuser is missing")
        if not self._version:
            self._version = run([str(PG_BIN / "postgres"), "--version"]).stdout.strip()

    def _as_pg(self, argv: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv

    def start(self) -> None:
        self.port = free_port()
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.data_dir = self.workdir / "data"
        sock = self.workdir / "sock"
        sock.mkdir(exist_ok=True)
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            for p in (self.workdir, sock):
                os.chown(p, pw.pw_uid, pw.pw_gid)
            # runuser needs to traverse the parents of the work dir
            for parent in self.workdir.parents:
                if str(parent) in ("/", "/tmp"):
                    break
                os.chmod(parent, os.stat(parent).st_mode | 0o111)
        try:
            run(
                self._as_pg(
                    [
                        str(PG_BIN / "initdb"),
                        "-D",
                        str(self.data_dir),
                        "-U",
                        "postgres",
                        "--auth=trust",
                        "-E",
                        "UTF8",
                        "--no-instructions",
                    ]
                ),
                timeout=120,
            )
        except ServiceError as e:
            raise Unavailable(f"initdb failed: {e}") from e
        argv = self._as_pg(
            [
                str(PG_BIN / "postgres"),
                "-D",
                str(self.data_dir),
                "-p",
                str(self.port),
                "-k",
                str(sock),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "max_connections=300",
                "-c",
                "shared_buffers=1GB",
                "-c",
                "synchronous_commit=off",
                "-c",
                "max_wal_size=8GB",
                "-c",
                "checkpoint_timeout=30min",
                "-c",
                "work_mem=64MB",
                "-c",
                "maintenance_work_mem=512MB",
                "-c",
                "jit=off",
                "-c",
                "logging_collector=off",
                "-c",
                "log_min_messages=warning",
            ]
        )
        # SIGINT is PostgreSQL's fast shutdown (SIGTERM would wait for clients).
        self.service = Service(
            self.id, argv, log_path=self.workdir / "postgres.log", stop_signal=signal.SIGINT
        ).start()

        def ready() -> bool:
            try:
                with psycopg.connect(self.dsn, connect_timeout=2) as c:
                    c.execute("SELECT 1")
                return True
            except psycopg.OperationalError:
                return False

        self.service.wait_ready(ready, timeout=60)
        with psycopg.connect(self.dsn, autocommit=True) as c:
            c.execute(SCHEMA.encode())

    def stop(self) -> None:
        if self.service:
            self.service.stop()
            self.service = None
        self._prepared.clear()

    def processes(self) -> list[tuple[str, int]]:
        return [(self.id, self.service.pid)] if self.service else []

    def prepare(self, ds: Dataset) -> None:
        key = (ds.host_offset, ds.hosts, ds.shape.name)
        if key in self._prepared:
            return
        with psycopg.connect(self.dsn, autocommit=True) as c, c.cursor() as cur:
            cur.execute("CREATE TEMP TABLE s_in (LIKE series)")
            with cur.copy("COPY s_in (id, measurement, field, tags) FROM STDIN") as cp:
                cp.write(series_copy_rows(ds))
            cur.execute("INSERT INTO series SELECT * FROM s_in ON CONFLICT (id) DO NOTHING")
            cur.execute("ANALYZE series")
        self._prepared.add(key)

    def writer(self) -> Writer:
        return _Writer(self.dsn)

    def reader(self, language: str) -> Reader:
        if language == "sql":
            return _Reader(self.dsn)
        return super().reader(language)

    def native(self, q: Question, language: str) -> str:
        if language == "sql":
            return sql_text(q)
        return super().native(q, language)

    def settle(self) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as c:
            c.execute("VACUUM ANALYZE points")
            c.execute("CHECKPOINT")

    def disk_bytes_extra(self) -> dict[str, int]:
        with psycopg.connect(self.dsn, autocommit=True) as c:
            row = c.execute(
                "SELECT pg_table_size('points'), pg_indexes_size('points'),"
                " pg_total_relation_size('series')"
            ).fetchone()
        assert row is not None
        return {
            "points_table_bytes": int(row[0]),
            "points_index_bytes": int(row[1]),
            "series_table_bytes": int(row[2]),
        }
