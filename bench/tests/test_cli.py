from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from vigil_bench.cli import build_parser, main
from vigil_bench.schema import BenchmarkRun
from vigil_bench.upload import UploadError, upload, upload_to_demo


def test_scenario_defaults_to_full_mode_and_all_systems() -> None:
    args = build_parser().parse_args(["query-latency"])
    assert args.mode == "full" and args.systems is None
    args = build_parser().parse_args(
        ["storage-ingest", "--small", "--systems", "vigil-storage,victoriametrics"]
    )
    assert args.mode == "small" and args.systems == ["vigil-storage", "victoriametrics"]


def test_unknown_system_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        build_parser().parse_args(["write-cost", "--systems", "vigil-storage,mysql"])
    assert e.value.code == 2
    assert "unknown system(s) mysql; known: vigil, vigil-storage" in capsys.readouterr().err


def test_small_and_full_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["dql", "--small", "--full"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_all_refuses_unknown_scenarios() -> None:
    with pytest.raises(SystemExit, match="unknown scenario.*nope; known: write-cost"):
        main(["all", "--small", "--only", "dql,nope"])


def test_export_csv_and_md(
    tmp_path: Path, sample_run: BenchmarkRun, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "run.json"
    f.write_text(sample_run.to_json())
    assert main(["export", "--format", "csv", str(f)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("run_id,scenario,mode,system,metric")
    out = tmp_path / "run.md"
    assert main(["export", "--format", "md", str(f), "-o", str(out)]) == 0
    assert out.read_text().startswith("# Benchmark run ")


def test_export_of_a_bad_file_says_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="cannot read .*missing.json"):
        main(["export", "--format", "csv", str(tmp_path / "missing.json")])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"schema_version": 1}))
    with pytest.raises(SystemExit, match="is not a benchmark result document"):
        main(["export", "--format", "md", str(bad)])


def test_upload_posts_the_document(sample_run: BenchmarkRun) -> None:
    seen: list[httpx.Request] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(req)
        return httpx.Response(201, json={"id": "b1"})

    out = upload(
        sample_run,
        backend="http://127.0.0.1:8000/",
        token="tok",
        workspace="ws-1",
        transport=httpx.MockTransport(handler),
    )
    assert out == {"id": "b1"}
    (req,) = seen
    assert (
        req.method == "POST"
        and str(req.url) == "http://127.0.0.1:8000/api/v1/workspaces/ws-1/benchmarks"
    )
    assert req.headers["authorization"] == "Bearer tok"
    assert BenchmarkRun.model_validate_json(req.content) == sample_run


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (404, "404 — unknown workspace, or this backend has no benchmarks route yet"),
        (403, "403 — the token is not allowed"),
        (422, "HTTP 422: "),
    ],
)
def test_upload_errors_are_explained(sample_run: BenchmarkRun, status: int, message: str) -> None:
    t = httpx.MockTransport(lambda req: httpx.Response(status, json={"detail": "x"}))
    with pytest.raises(UploadError, match=message):
        upload(sample_run, backend="http://b", token="t", workspace="ws", transport=t)


def test_upload_refuses_a_bad_workspace_id(sample_run: BenchmarkRun) -> None:
    with pytest.raises(UploadError, match="invalid workspace id '../x'"):
        upload(sample_run, backend="http://b", token="t", workspace="../x")


def test_upload_takes_the_token_from_the_environment(
    tmp_path: Path, sample_run: BenchmarkRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VIGIL_TOKEN", "vgs_from_env")
    args = build_parser().parse_args(["upload", "--backend", "http://b", "--workspace", "w", "r"])
    assert args.token == "vgs_from_env"
    monkeypatch.delenv("VIGIL_TOKEN")
    f = tmp_path / "run.json"
    f.write_text(sample_run.to_json())
    with pytest.raises(SystemExit, match="upload needs a token: --token, or VIGIL_TOKEN"):
        main(["upload", "--backend", "http://b", "--workspace", "w", str(f)])


def test_upload_says_why_the_token_was_refused(sample_run: BenchmarkRun) -> None:
    detail = "This token's scope (editor) does not allow benchmarks.write"
    t = httpx.MockTransport(lambda req: httpx.Response(403, json={"detail": detail}))
    with pytest.raises(
        UploadError, match=rf"403 — the token is not allowed .*: {re.escape(detail)}"
    ):
        upload(sample_run, backend="http://b", token="t", workspace="ws", transport=t)


_DEMO = {
    "VIGIL_DEMO_EMAIL": "demo@vigil.dev",
    "VIGIL_DEMO_PASSWORD": "pw",
    "VIGIL_DEMO_WORKSPACE": "ws-demo",
}


def test_upload_to_demo_signs_in_and_posts_to_the_demo_workspace(
    sample_run: BenchmarkRun,
) -> None:
    seen: list[httpx.Request] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(req)
        if req.url.path == "/api/v1/auth/login":
            return httpx.Response(200, json={"access_token": "session-1"})
        return httpx.Response(201, json={"id": "run-7"})

    url = upload_to_demo(
        sample_run,
        demo_env=_DEMO,
        backend="http://127.0.0.1:8000",
        transport=httpx.MockTransport(handler),
    )
    assert url == "http://127.0.0.1:8000/w/ws-demo/benchmarks/run-7"
    login, post = seen
    assert json.loads(login.content) == {"email": "demo@vigil.dev", "password": "pw"}
    assert post.url.path == "/api/v1/workspaces/ws-demo/benchmarks"
    assert post.headers["authorization"] == "Bearer session-1"


def test_upload_to_demo_explains_a_refused_sign_in(sample_run: BenchmarkRun) -> None:
    t = httpx.MockTransport(lambda req: httpx.Response(401, json={"detail": "Wrong password"}))
    with pytest.raises(UploadError, match="HTTP 401: Wrong password"):
        upload_to_demo(sample_run, demo_env=_DEMO, backend="http://b", transport=t)
    with pytest.raises(UploadError, match="lacks VIGIL_DEMO_EMAIL"):
        upload_to_demo(sample_run, demo_env={}, backend="http://b", transport=t)


def test_runs_upload_unless_told_not_to() -> None:
    assert build_parser().parse_args(["dql", "--small"]).upload is True
    assert build_parser().parse_args(["dql", "--small", "--no-upload"]).upload is False
    assert build_parser().parse_args(["all", "--small", "--no-upload"]).upload is False
