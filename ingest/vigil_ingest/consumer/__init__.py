"""The consumer: reads the metrics topics as group ``vigil-consumer``, writes each batch to
vigil-storage for its workspace, and commits offsets only after storage acknowledged."""
