"""The backend reads exactly what ``vigil-bench`` writes.

The runner (``bench/vigil_bench/schema.py``) produces result documents and the backend
(``app.schemas.benchmark``) validates them on upload; the backend does not import the runner.
These tests hold the two models together: same JSON Schema shape (types, fields, which are
required; the backend may only add bounds), and every result document on this machine and
in the repository validates in both and comes out of the backend unchanged.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

# The runner is a test-time dependency only (installed in the shared venv by infra/install.sh).
from vigil_bench.schema import SCHEMA_VERSION, BenchmarkRun

from app.schemas.benchmark import SUPPORTED_SCHEMA_VERSIONS, BenchmarkRunDocument

REPO = Path(__file__).resolve().parents[2]
VIGIL_HOME = Path(os.environ.get("VIGIL_HOME", REPO / ".vigil"))
# Keywords that describe or bound a value without changing its shape.
ANNOTATIONS = {
    "title",
    "description",
    "examples",
    "maxLength",
    "minLength",
    "pattern",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
}


def _shape(schema: dict[str, Any], node: Any) -> Any:
    """``node`` with every ``$ref`` inlined and the annotation keywords removed."""
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            return _shape(schema, schema["$defs"][name])
        return {
            k: _shape(schema, v) for k, v in node.items() if k not in ANNOTATIONS and k != "$defs"
        }
    if isinstance(node, list):
        return [_shape(schema, v) for v in node]
    return node


def _documents() -> list[Path]:
    committed = sorted((REPO / "backend/tests/fixtures").glob("benchmark-run-*.json"))
    committed += sorted((REPO / "e2e/fixtures").glob("benchmark-run-*.json"))
    measured = sorted((VIGIL_HOME / "bench").glob("*.json"))
    measured += sorted((REPO / ".vigil/bench").glob("*.json"))
    return list(dict.fromkeys(committed + measured))


def test_same_version() -> None:
    assert (SCHEMA_VERSION,) == SUPPORTED_SCHEMA_VERSIONS


def test_same_json_schema_shape() -> None:
    runner = BenchmarkRun.model_json_schema()
    backend = BenchmarkRunDocument.model_json_schema()
    assert _shape(backend, backend) == _shape(runner, runner)


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.name)
def test_result_documents_read_the_same(path: Path) -> None:
    text = path.read_text()
    produced = BenchmarkRun.model_validate_json(text)
    if not produced.scenarios:
        # The runner writes an empty document when every scenario was skipped or stopped;
        # there is nothing to report, and the backend says so.
        with pytest.raises(ValidationError, match="scenarios\n  List should have at least 1"):
            BenchmarkRunDocument.model_validate_json(text)
        return
    stored = BenchmarkRunDocument.model_validate_json(text)
    assert stored.model_dump(mode="json") == produced.model_dump(mode="json")
    # what the backend returns, the runner reads back unchanged (export, compare)
    again = BenchmarkRun.model_validate_json(stored.model_dump_json())
    assert again == produced


def test_committed_fixtures_are_present() -> None:
    names = {p.name for p in _documents()}
    assert {"benchmark-run-small.json", "benchmark-run-small-1.json"} <= names


def test_a_newer_version_is_refused_with_its_number() -> None:
    doc: dict[str, Any] = json.loads(
        (REPO / "backend/tests/fixtures/benchmark-run-small.json").read_text()
    )
    doc["schema_version"] = SCHEMA_VERSION + 1
    with pytest.raises(ValidationError, match=f"unsupported schema_version {SCHEMA_VERSION + 1}"):
        BenchmarkRunDocument.model_validate(doc)
