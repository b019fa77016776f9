"""The ingest gateway: authenticates agents, enforces workspace limits, validates cheaply and
produces each batch to Kafka, answering 204 only once Kafka has it."""
