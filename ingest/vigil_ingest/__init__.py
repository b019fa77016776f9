"""Vigil ingest: the HTTP gateway that puts agents' batches on Kafka, and the consumer that
writes them to vigil-storage."""

__version__ = "0.1.0"
