"""``vigil-consumer`` / ``python -m vigil_ingest.consumer``."""

from vigil_ingest.consumer.main import main

if __name__ == "__main__":
    main()
