"""Vigil benchmark lab: comparative write and query benchmarks.

Each scenario of the methodology (``docs/benchmarks.md``) is one subcommand of the
``vigil-bench`` CLI. A run starts every system it compares on loopback in a throw-away data
directory, drives the same load or the same questions at each, samples each system's process
tree, and writes one JSON document (:class:`vigil_bench.schema.BenchmarkRun`).
"""

__version__ = "0.1.0"
