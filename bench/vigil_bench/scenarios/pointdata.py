"""Questions over the ``point`` shape (one series per host), in every system's own language.

Scenarios 7 and 8 pick series at random: each host of the ``point`` shape carries exactly one
series, ``pq`` ``v`` (``pq:v`` in vigil-storage, ``pq_v`` in VictoriaMetrics, series id
``host + 1`` in PostgreSQL). Two questions:

- :class:`RangeQuery`: the raw samples of a set of series over a time range (PromQL range
  selector at an instant, InfluxQL ``host = … OR …`` grouped by host, SQL ``series_id =
  ANY(…)`` copied out as text);
- a last-value lookup of one series (``last_over_time``, ``last()``, ``ORDER BY ts DESC
  LIMIT 1``).

:class:`PointClient` is one connection (one per thread); ``fetch_*`` return the undecoded
answer so that a timed loop does not pay for decoding, ``parse_*`` decode it for the
equal-answers check.
"""

from __future__ import annotations

import json
import random
import urllib.parse
from dataclasses import dataclass

import psycopg

from ..datagen import Dataset, host_name
from ..httpconn import Http
from ..questions import Answer
from ..systems import System
from ..systems.influxdb import DB

SYSTEMS = ["vigil-storage", "victoriametrics", "influxdb", "postgres"]
#: small mode (make test) compares one Go engine and one C one, PromQL and SQL, to stay short
SMALL_SYSTEMS = ["vigil-storage", "postgres"]
PROM_NAMES = {"vigil-storage": "pq:v", "victoriametrics": "pq_v"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
#: the window a last-value lookup looks back over
LAST_WINDOW_S = 86_400


@dataclass(frozen=True)
class RangeQuery:
    """The raw samples of `hosts`' series in (start_ms, end_ms]; no sample lies on a bound."""

    hosts: tuple[int, ...]
    start_ms: int
    end_ms: int


def range_query(ds: Dataset, series: int, rnd: random.Random) -> RangeQuery:
    """`series` random series of ds over its whole span (bounds 1 s before each sample)."""
    pool = range(ds.host_offset, ds.host_offset + ds.hosts)
    hosts = tuple(sorted(rnd.sample(pool, min(series, ds.hosts))))
    return RangeQuery(hosts, ds.start_ms - 1000, ds.end_ms - 1000)


def promql_range(q: RangeQuery, name: str) -> dict[str, str]:
    hosts = "|".join(host_name(h) for h in q.hosts)
    win = (q.end_ms - q.start_ms) // 1000
    return {
        "query": f'{name}{{host=~"{hosts}"}}[{win}s]',
        "time": f"{q.end_ms / 1000:.3f}",
        "nocache": "1",
    }


def influxql_range(q: RangeQuery) -> str:
    hosts = " OR ".join(f"host = '{host_name(h)}'" for h in q.hosts)
    return (
        f"SELECT v FROM pq WHERE ({hosts}) AND time > {q.start_ms}ms AND time <= {q.end_ms}ms"
        " GROUP BY host"
    )


def sql_range(q: RangeQuery) -> str:
    ids = ",".join(str(h + 1) for h in q.hosts)
    return (
        "COPY (SELECT series_id, (extract(epoch FROM ts) * 1000)::bigint, value FROM points"
        f" WHERE series_id = ANY('{{{ids}}}'::integer[])"
        f" AND ts > to_timestamp({q.start_ms} / 1000.0) AND ts <= to_timestamp({q.end_ms} / 1000.0))"
        " TO STDOUT"
    )


def promql_last(host: int, name: str) -> dict[str, str]:
    return {"query": f'last_over_time({name}{{host="{host_name(host)}"}}[{LAST_WINDOW_S}s])'}


def influxql_last(host: int) -> str:
    return f"SELECT last(v) FROM pq WHERE host = '{host_name(host)}' AND time > now() - {LAST_WINDOW_S}s"


def sql_last(host: int) -> str:
    return f"SELECT value FROM points WHERE series_id = {host + 1} ORDER BY ts DESC LIMIT 1"


def parse_prom_range(body: bytes) -> Answer:
    doc = json.loads(body)
    if doc.get("status") != "success":
        raise ValueError(f"query failed: {body[:300]!r}")
    out: Answer = {}
    for r in doc["data"]["result"]:
        out[r["metric"].get("host", "")] = sorted(
            (round(float(t) * 1000), float(v)) for t, v in r.get("values", [])
        )
    return out


def parse_influx_range(body: bytes) -> Answer:
    doc = json.loads(body)
    res = doc.get("results", [{}])[0]
    if "error" in res or "error" in doc:
        raise ValueError(f"InfluxQL failed: {res.get('error') or doc.get('error')}")
    out: Answer = {}
    for s in res.get("series") or []:
        out[(s.get("tags") or {}).get("host", "")] = sorted(
            (int(t), float(v)) for t, v in s["values"] if v is not None
        )
    return out


def parse_copy_range(body: bytes) -> Answer:
    out: Answer = {}
    for line in body.decode().splitlines():
        sid, t, v = line.split("\t")
        out.setdefault(host_name(int(sid) - 1), []).append((int(t), float(v)))
    for g in out:
        out[g].sort()
    return out


def parse_prom_last(body: bytes) -> float | None:
    doc = json.loads(body)
    if doc.get("status") != "success":
        raise ValueError(f"query failed: {body[:300]!r}")
    res = doc["data"]["result"]
    return float(res[0]["value"][1]) if res else None


def parse_influx_last(body: bytes) -> float | None:
    doc = json.loads(body)
    res = doc.get("results", [{}])[0]
    if "error" in res or "error" in doc:
        raise ValueError(f"InfluxQL failed: {res.get('error') or doc.get('error')}")
    series = res.get("series") or []
    return float(series[0]["values"][0][1]) if series else None


class PointClient:
    """One connection to one system for both questions (one per thread)."""

    def __init__(self, system: System) -> None:
        self.sid = system.id
        self.http: Http | None = None
        self.pg: psycopg.Connection[tuple[object, ...]] | None = None
        if self.sid in PROM_NAMES:
            self.http = system.http()  # type: ignore[attr-defined]
        elif self.sid == "influxdb":
            self.http = Http(system.url)  # type: ignore[attr-defined]
        elif self.sid == "postgres":
            self.pg = psycopg.connect(
                system.dsn,  # type: ignore[attr-defined]
                autocommit=True,
                options="-c statement_timeout=65000",
            )
        else:
            raise ValueError(f"{self.sid} does not hold the point shape")

    def _post(self, path: str, params: dict[str, str]) -> bytes:
        assert self.http is not None
        return self.http.expect(
            "POST", path, ok=(200,), body=urllib.parse.urlencode(params).encode(), headers=FORM
        )

    def fetch_range(self, q: RangeQuery) -> bytes:
        if self.sid in PROM_NAMES:
            return self._post("/api/v1/query", promql_range(q, PROM_NAMES[self.sid]))
        if self.sid == "influxdb":
            return self._post("/query", {"db": DB, "epoch": "ms", "q": influxql_range(q)})
        assert self.pg is not None
        with self.pg.cursor() as cur, cur.copy(sql_range(q).encode()) as cp:
            return b"".join(bytes(block) for block in cp)

    def parse_range(self, raw: bytes) -> Answer:
        if self.sid in PROM_NAMES:
            return parse_prom_range(raw)
        if self.sid == "influxdb":
            return parse_influx_range(raw)
        return parse_copy_range(raw)

    def fetch_last(self, host: int) -> object:
        if self.sid in PROM_NAMES:
            return self._post("/api/v1/query", promql_last(host, PROM_NAMES[self.sid]))
        if self.sid == "influxdb":
            return self._post("/query", {"db": DB, "epoch": "ms", "q": influxql_last(host)})
        assert self.pg is not None
        return self.pg.execute(sql_last(host).encode()).fetchone()

    def parse_last(self, raw: object) -> float | None:
        if self.sid in PROM_NAMES:
            assert isinstance(raw, bytes)
            return parse_prom_last(raw)
        if self.sid == "influxdb":
            assert isinstance(raw, bytes)
            return parse_influx_last(raw)
        return None if raw is None else float(raw[0])  # type: ignore[index]

    def close(self) -> None:
        if self.http is not None:
            self.http.close()
        if self.pg is not None:
            self.pg.close()
