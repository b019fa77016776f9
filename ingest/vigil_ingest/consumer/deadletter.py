"""The dead-letter topic: records storage refused for good, unchanged, with the reason."""

from __future__ import annotations

from kafka import KafkaProducer
from kafka.errors import KafkaError

from vigil_ingest.common.errors import Retryable
from vigil_ingest.common.kafka import HEADER_ERROR, HEADER_SOURCE_TOPIC, HEADER_WORKSPACE
from vigil_ingest.consumer.batcher import Record

MAX_ERROR_BYTES = 4096


def deadletter_headers(record: Record, reason: str) -> list[tuple[str, bytes]]:
    """The record's headers plus ``vigil-error`` and ``vigil-source-topic``."""
    kept = [
        (k, v) for k, v in (record.headers or []) if k not in (HEADER_ERROR, HEADER_SOURCE_TOPIC)
    ]
    return kept + [
        (HEADER_ERROR, reason.encode()[:MAX_ERROR_BYTES]),
        (HEADER_SOURCE_TOPIC, record.topic.encode()),
    ]


class DeadLetter:
    """Sends refused records to the dead-letter topic and waits for Kafka's acknowledgement."""

    def __init__(self, producer: KafkaProducer, topic: str, *, timeout_s: float = 10.0) -> None:
        self._producer = producer
        self._topic = topic
        self._timeout = timeout_s

    def send(self, record: Record, reason: str) -> None:
        headers = deadletter_headers(record, reason)
        key = dict(headers).get(HEADER_WORKSPACE) or getattr(record, "key", None)
        try:
            self._producer.send(self._topic, value=record.value, key=key, headers=headers).get(
                timeout=self._timeout
            )
        except KafkaError as e:
            raise Retryable(f"dead-letter topic unavailable: {e!r}") from e
