from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from vigil_bench.schema import SCHEMA_VERSION, BenchmarkRun


def test_round_trip_is_lossless(sample_run: BenchmarkRun) -> None:
    text = sample_run.to_json()
    back = BenchmarkRun.from_json(text)
    assert back == sample_run
    assert json.loads(text)["schema_version"] == SCHEMA_VERSION == 1


def test_unknown_schema_version_is_refused(sample_run: BenchmarkRun) -> None:
    doc = json.loads(sample_run.to_json())
    doc["schema_version"] = 2
    with pytest.raises(ValidationError, match="schema_version"):
        BenchmarkRun.model_validate(doc)


def test_unknown_fields_are_refused(sample_run: BenchmarkRun) -> None:
    doc = json.loads(sample_run.to_json())
    doc["scenarios"][0]["measurements"][0]["colour"] = "red"
    with pytest.raises(ValidationError, match="colour"):
        BenchmarkRun.model_validate(doc)


def test_json_schema_is_published() -> None:
    schema = BenchmarkRun.model_json_schema()
    assert "environment" in schema["required"]
    assert schema["properties"]["schema_version"]["const"] == 1
