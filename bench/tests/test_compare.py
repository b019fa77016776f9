from __future__ import annotations

import json
from pathlib import Path

import pytest

from vigil_bench.cli import main
from vigil_bench.compare import compare, figure_median
from vigil_bench.schema import BenchmarkRun, Measurement


def _with(
    run: BenchmarkRun, run_id: str, pps_reps: list[float], p50: float, ratio: float
) -> BenchmarkRun:
    other = run.model_copy(deep=True)
    other.run_id = run_id
    sc = other.scenarios[0]
    sc.measurements[0].repetitions = pps_reps
    sc.measurements[0].value = sorted(pps_reps)[len(pps_reps) // 2]
    sc.measurements[1].value = p50
    sc.summary["ratio"] = ratio
    return other


def _write(tmp_path: Path, run: BenchmarkRun) -> Path:
    f = tmp_path / f"{run.run_id}.json"
    f.write_text(run.to_json())
    return f


def test_figure_median_prefers_repetitions_and_skips_failures() -> None:
    m = Measurement(system="s", metric="m", value=9.0, unit="", repetitions=[3.0, 1.0, 2.0])
    assert figure_median(m) == 2.0
    assert figure_median(Measurement(system="s", metric="m", value=9.0, unit="")) == 9.0
    assert figure_median(Measurement(system="s", metric="m", value=None, unit="")) is None


def test_compare_prints_both_medians_and_flags_beyond_ten_percent(
    tmp_path: Path, sample_run: BenchmarkRun, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _with(sample_run, "run-a", [1.0e6, 1.1e6, 1.2e6], 0.25, 0.97)
    # points/s median 1.1e6 -> 1.32e6 (+20 %), p50 0.25 -> 0.26 (+4 %), ratio 0.97 -> 0.97
    b = _with(sample_run, "run-b", [1.3e6, 1.32e6, 1.4e6], 0.26, 0.97)
    code = main(["compare", str(_write(tmp_path, a)), str(_write(tmp_path, b))])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    last = json.loads(out[-1])
    assert last["a"] == "run-a" and last["b"] == "run-b"
    assert last["compared"] == 3 and last["outside"] == 1
    assert last["max_abs_diff"] == 0.2
    assert last["median_abs_diff"] == 0.04
    assert last["flagged"] == [
        {
            "figure": "storage-ingest vigil-storage points_per_second",
            "a": 1.1e6,
            "b": 1.32e6,
            "diff": 0.2,
        }
    ]
    row = next(x for x in out if x.startswith("storage-ingest vigil-storage points_per_second"))
    assert "1,100,000" in row and "1,320,000" in row and "+20.0 %" in row and "OUTSIDE" in row
    row = next(x for x in out if "latency_ms_p50" in x)
    assert "+4.0 %" in row and "OUTSIDE" not in row
    assert "{language=PromQL,query=raw-1h}" in row


def test_compare_within_tolerance_exits_zero_and_filters_metrics(
    tmp_path: Path, sample_run: BenchmarkRun, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _with(sample_run, "run-a", [1.0e6, 1.1e6, 1.2e6], 0.25, 0.97)
    b = _with(sample_run, "run-b", [1.0e6, 1.05e6, 1.2e6], 0.5, 0.97)
    fa, fb = _write(tmp_path, a), _write(tmp_path, b)
    assert main(["compare", "--metric", "points_per_second", str(fa), str(fb)]) == 0
    last = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert last["compared"] == 1 and last["outside"] == 0 and last["flagged"] == []
    # the p50 doubled: outside at ±10 %, inside at ±150 %
    assert main(["compare", "--tolerance", "1.5", str(fa), str(fb)]) == 0
    assert main(["compare", str(fa), str(fb)]) == 1


def test_compare_reports_figures_of_one_run_only(sample_run: BenchmarkRun) -> None:
    a = _with(sample_run, "run-a", [1.0], 0.25, 0.97)
    b = a.model_copy(deep=True)
    b.scenarios[0].measurements[1].labels = {"query": "raw-8h", "language": "PromQL"}
    rows, only_a, only_b = compare(a, b)
    assert [r.figure.metric for r in rows] == ["points_per_second", "ratio"]
    assert [f.labels for f in only_a] == ["language=PromQL,query=raw-1h"]
    assert [f.labels for f in only_b] == ["language=PromQL,query=raw-8h"]


def test_compare_refuses_a_bad_tolerance_and_a_missing_file(
    tmp_path: Path, sample_run: BenchmarkRun, capsys: pytest.CaptureFixture[str]
) -> None:
    f = _write(tmp_path, sample_run)
    with pytest.raises(SystemExit) as e:
        main(["compare", "--tolerance", "-1", str(f), str(f)])
    assert e.value.code == 2
    assert "must be a fraction above 0" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="cannot read .*nope.json"):
        main(["compare", str(f), str(tmp_path / "nope.json")])
