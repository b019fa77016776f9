"""Measure the consumer: points/s from Kafka to vigil-storage, for a backlog of 5,000-line
records on a fresh topic (so a running stack's topics are untouched).

    python ingest/tests/perf/measure_consumer.py --records 200

Reads VIGIL_KAFKA_BOOTSTRAP, VIGIL_STORAGE_URL and VIGIL_INTERNAL_TOKEN like the consumer;
writes into the workspace ``perf-consumer``. Bounded by --records and --timeout.
"""

from __future__ import annotations

import argparse
import threading
import time
import uuid

from kafka import KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic

from vigil_ingest.common.config import Settings
from vigil_ingest.common.kafka import Batch
from vigil_ingest.consumer.main import Consumer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=200)
    ap.add_argument("--lines", type=int, default=5000)
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    base = Settings()
    topic = f"vigil.perf.{uuid.uuid4().hex[:8]}.line"
    admin = KafkaAdminClient(bootstrap_servers=base.kafka_servers)
    admin.create_topics([NewTopic(topic, args.partitions, 1), NewTopic(topic + ".dl", 1, 1)])
    try:
        producer = KafkaProducer(
            bootstrap_servers=base.kafka_servers,
            acks="all",
            max_request_size=16 * 1024 * 1024,
            batch_size=1 << 20,
        )
        now = time.time_ns()
        for r in range(args.records):
            ws = f"perf-consumer-{r % args.partitions}"
            body = b"".join(
                b"perf,host=h%d,dc=a usage_user=%d.5,usage_system=3i,usage_idle=90.1 %d\n"
                % (i % 500, i, now + r * args.lines + i)
                for i in range(args.lines)
            )
            b = Batch(ws, "line", body, args.lines, 0, "ns")
            producer.send(topic, value=b.value, key=b.key, headers=b.headers())
        producer.flush()
        producer.close()
        total = args.records * args.lines
        settings = Settings(consumer_group=f"perf-{uuid.uuid4().hex[:8]}")
        c = Consumer(settings, topics=[topic], deadletter_topic=topic + ".dl")
        c.lag_interval_s = 0.5
        t = threading.Thread(target=c.run, daemon=True)
        t0 = time.perf_counter()
        t.start()
        while c.metrics.points.labels("line")._value.get() < total:
            if time.perf_counter() - t0 > args.timeout:
                raise SystemExit("timed out")
            time.sleep(0.05)
        elapsed = time.perf_counter() - t0
        c.stop()
        t.join(30)
        c.close()
        batches = c.metrics.batches.labels("line")._value.get()
        print(
            f"consumer: {total:,} points in {args.records} records written in {elapsed:.2f} s "
            f"= {total / elapsed:,.0f} points/s ({batches:.0f} storage writes)"
        )
    finally:
        admin.delete_topics([topic, topic + ".dl"])
        admin.close()


if __name__ == "__main__":
    main()
