from __future__ import annotations

import csv
import io

from vigil_bench.report import CSV_COLUMNS, run_text, to_csv, to_markdown
from vigil_bench.schema import BenchmarkRun


def test_csv_has_one_row_per_measurement(sample_run: BenchmarkRun) -> None:
    rows = list(csv.reader(io.StringIO(to_csv(sample_run))))
    assert rows[0] == CSV_COLUMNS
    assert rows[1] == [
        "20261121T060000Z-storage-ingest",
        "storage-ingest",
        "small",
        "vigil-storage",
        "points_per_second",
        "1500000.0",
        "points/s",
        "",
        "",
        "1400000.0 1500000.0 1600000.0",
        "true",
    ]
    assert rows[2][3:9] == [
        "victoriametrics",
        "latency_ms_p50",
        "0.25",
        "ms",
        "4.0",
        "language=PromQL query=raw-1h",
    ]
    assert len(rows) == 3


def test_a_label_that_looks_like_a_formula_is_text_in_the_csv(sample_run: BenchmarkRun) -> None:
    """The export neutralises formulas (OWASP, CSV injection): backend/tests/test_benchmark_report.py."""
    sample_run.scenarios[0].measurements[0].labels = {"q": "x"}
    sample_run.scenarios[0].measurements[0].system = "=cmd|' /C calc'!A0"
    rows = list(csv.reader(io.StringIO(to_csv(sample_run))))
    assert rows[1][3] == "'=cmd|' /C calc'!A0"


def test_markdown_has_environment_tables_and_unavailable_systems(sample_run: BenchmarkRun) -> None:
    md = to_markdown(sample_run)
    assert md.startswith("# Benchmark run 20261121T060000Z-storage-ingest\n")
    assert "- machine: AMD EPYC, 2 CPUs, 24.0 GiB, kernel 6.1, glibc 2.36, Debian 12" in md
    assert "| vigil-storage | points_per_second |  | 1,500,000 | points/s |" in md
    assert "| victoriametrics | latency_ms_p50 | language=PromQL query=raw-1h | 0.25 | ms |" in md
    assert "`influxdb` unavailable: influxd is not built" in md
    assert "| vigil-storage | rep 1 | 80.5 | 99.0 | 100 | 5.0 |" in md
    assert "> a \\| pipe" in md


def test_text_report_marks_failed_checks(sample_run: BenchmarkRun) -> None:
    sample_run.scenarios[0].checks[0].ok = False
    sample_run.scenarios[0].valid = False
    text = run_text(sample_run)
    assert "(INVALID)" in text and "check FAIL raw-1h: same 12 points" in text
