"""The benchmark export's CSV cells: what a spreadsheet would run is written as text."""

from __future__ import annotations

import pytest

from app.benchmark_report import csv_cell


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("https://evil.example","x")', '\'=HYPERLINK("https://evil.example","x")'),
        ("+1+cmd", "'+1+cmd"),
        ("-1.5 2.0", "'-1.5 2.0"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("-1.5", "-1.5"),
        ("+3", "+3"),
        ("-2e-07", "-2e-07"),
        ("-inf", "-inf"),
        ("nan", "nan"),
        ("host=a", "host=a"),
        ("", ""),
    ],
)
def test_cells_that_spreadsheets_would_run_are_neutralised(value: str, written: str) -> None:
    """OWASP's advice on CSV injection, as the UI's own CSV downloads do it
    (frontend/src/lib/csv.ts): a leading ``'``, plain numbers excepted."""
    assert csv_cell(value) == written
