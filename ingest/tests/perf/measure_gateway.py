"""Measure a running gateway: points/s with one client sending 5,000-line batches, and the
latency of a small write (204 = acknowledged by Kafka).

    python ingest/tests/perf/measure_gateway.py --url http://127.0.0.1:8001 --key "$VIGIL_DEMO_INGEST_KEY"

Bounded: at most --seconds per phase and --max-requests requests, loopback targets only.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid

import httpx


def batch(lines: int, seq: int, run: str) -> bytes:
    ts = time.time_ns()
    return b"".join(
        b"perf,run=%s,host=h%d,dc=a usage_user=%d.5,usage_system=3i,usage_idle=90.1 %d\n"
        % (run.encode(), i % 100, i, ts + seq * lines + i)
        for i in range(lines)
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default="http://127.0.0.1:8001")
    ap.add_argument("--key", required=True)
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--max-requests", type=int, default=400)
    ap.add_argument("--latency-requests", type=int, default=200)
    args = ap.parse_args()
    host = httpx.URL(args.url).host
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"refusing to load a non-loopback host {host!r}")
    run = uuid.uuid4().hex[:8]
    headers = {"Authorization": f"Token {args.key}"}
    with httpx.Client(base_url=args.url, headers=headers, timeout=30) as c:
        bodies = [batch(args.lines, i, run) for i in range(8)]
        c.post("/v1/write/metric", content=bodies[0]).raise_for_status()  # warm up
        sent = 0
        t0 = time.perf_counter()
        n = 0
        while n < args.max_requests and time.perf_counter() - t0 < args.seconds:
            r = c.post("/v1/write/metric", content=bodies[n % len(bodies)])
            if r.status_code != 204:
                raise SystemExit(f"write failed: {r.status_code} {r.text}")
            sent += args.lines
            n += 1
        elapsed = time.perf_counter() - t0
        print(
            f"throughput: {n} requests x {args.lines} lines in {elapsed:.2f} s = "
            f"{sent / elapsed:,.0f} points/s ({elapsed / n * 1000:.1f} ms per batch)"
        )
        small = batch(10, 0, run)
        lat: list[float] = []
        for _ in range(args.latency_requests):
            t = time.perf_counter()
            r = c.post("/v1/write/metric", content=small)
            lat.append((time.perf_counter() - t) * 1000)
            if r.status_code != 204:
                raise SystemExit(f"write failed: {r.status_code} {r.text}")
        lat.sort()
        print(
            f"latency of a 10-line write (204 after Kafka ack), {len(lat)} sequential: "
            f"p50 {statistics.median(lat):.2f} ms, p90 {lat[int(len(lat) * 0.9)]:.2f} ms, "
            f"p99 {lat[int(len(lat) * 0.99)]:.2f} ms"
        )


if __name__ == "__main__":
    main()
