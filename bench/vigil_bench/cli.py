"""``vigil-bench``: one subcommand per benchmark, plus export and upload of results.

Every benchmark prints a human table and, as its very last stdout line, one JSON object
with its headline figures; the whole result document goes to
``$VIGIL_HOME/bench/<run-id>.json`` (progress and logs go to stderr).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Literal

from . import environment, procs, report
from .progress import log
from .runner import RunContext, results_dir
from .schema import BenchmarkRun, GeneratorInfo, ScenarioResult
from .systems import SYSTEMS

DEFAULT_SYSTEMS = ["vigil", "vigil-storage", "victoriametrics", "influxdb", "postgres"]


def _scenarios() -> dict[str, ModuleType]:
    from .scenarios import (
        batch_size,
        concurrency,
        disk_footprint,
        dql,
        fairness,
        ingest,
        ingest_consumers,
        point_queries,
        query_latency,
        read_write_mix,
        soak,
        storage_ingest,
        write_cost,
        write_saturation,
    )

    return {
        "write-cost": write_cost,
        "write-saturation": write_saturation,
        "query-latency": query_latency,
        "disk-footprint": disk_footprint,
        "batch-size": batch_size,
        "concurrency": concurrency,
        "point-queries": point_queries,
        "read-write-mix": read_write_mix,
        "soak": soak,
        "storage-ingest": storage_ingest,
        "dql": dql,
        "ingest": ingest,
        "ingest-consumers": ingest_consumers,
        "fairness": fairness,
    }


#: what `vigil-bench all` runs, in order: scenarios 1-9 of the methodology, then the
#: component benchmarks.
ALL = [
    "write-cost",
    "write-saturation",
    "query-latency",
    "disk-footprint",
    "batch-size",
    "concurrency",
    "point-queries",
    "read-write-mix",
    "soak",
    "storage-ingest",
    "dql",
    "ingest",
    "ingest-consumers",
    "fairness",
]


def _systems_arg(text: str) -> list[str]:
    ids = [s.strip() for s in text.split(",") if s.strip()]
    bad = [s for s in ids if s not in SYSTEMS]
    if bad or not ids:
        raise argparse.ArgumentTypeError(
            f"unknown system(s) {', '.join(bad) or '(none given)'}; known: {', '.join(SYSTEMS)}"
        )
    return ids


def _add_common(p: argparse.ArgumentParser) -> None:
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--small",
        dest="mode",
        action="store_const",
        const="small",
        help="small mode: each scenario finishes in under a minute (used by tests)",
    )
    mode.add_argument(
        "--full",
        dest="mode",
        action="store_const",
        const="full",
        help="full mode (the default), sized for this machine",
    )
    p.set_defaults(mode="full")
    p.add_argument(
        "--systems",
        type=_systems_arg,
        help=f"comma-separated systems to compare (default: {','.join(DEFAULT_SYSTEMS)})",
    )
    p.add_argument(
        "--results-dir", type=Path, help="where to write <run-id>.json (default $VIGIL_HOME/bench)"
    )
    p.add_argument("--run-id", help="name of the result document (default: a timestamp)")
    p.add_argument("--keep", action="store_true", help="keep the temporary data directories")
    p.add_argument(
        "--no-upload",
        dest="upload",
        action="store_false",
        help="do not send the result to the demo workspace of the running stack",
    )
    p.add_argument(
        "--tmp", help="parent of the temporary data directories (default: system temp dir)"
    )


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="vigil-bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, mod in _scenarios().items():
        p = sub.add_parser(
            name,
            help=mod.TITLE,
            description=mod.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        _add_common(p)
        mod.add_arguments(p)
    p = sub.add_parser(
        "all",
        help="every scenario in turn (scenarios 1-9, then storage-ingest, dql, ingest, "
        "ingest-consumers, fairness)",
    )
    _add_common(p)
    p.add_argument(
        "--only",
        type=lambda s: [x.strip() for x in s.split(",") if x.strip()],
        help=f"subset of: {','.join(ALL)}",
    )

    p = sub.add_parser("export", help="render a result document as CSV or Markdown")
    p.add_argument("run_file", type=Path, metavar="RUN.json")
    p.add_argument("--format", choices=["csv", "md"], required=True)
    p.add_argument("-o", "--output", type=Path, help="write here instead of stdout")

    p = sub.add_parser("upload", help="send a result document to the backend")
    p.add_argument("run_file", type=Path, metavar="RUN.json")
    p.add_argument("--backend", required=True, help="backend base URL, e.g. http://127.0.0.1:8000")
    p.add_argument(
        "--token",
        default=os.environ.get("VIGIL_TOKEN"),
        help="a service token of the workspace (vgs_…, editor scope or above) or a session "
        "token, sent as Authorization: Bearer; default $VIGIL_TOKEN (keeps it off the "
        "command line)",
    )
    p.add_argument("--workspace", required=True, help="workspace id")

    sub.add_parser("systems", help="which systems can run here, with versions or reasons")
    sub.add_parser("schema", help="print the JSON Schema of the result document")
    return ap


def _agent_version() -> str | None:
    from .agent import agent_available, agent_binary

    if agent_available() is not None:
        return None
    try:
        return procs.run([str(agent_binary()), "-version"], timeout=10).stdout.strip() or None
    except procs.ServiceError:
        return None


def _generator_info() -> GeneratorInfo:
    from .agent import agent_available, agent_binary

    why_not = agent_available()
    if why_not is None:
        return GeneratorInfo(
            kind="vigil-agent",
            detail=f"{agent_binary()} --simulate (1,383 series per host) for the write scenarios"
            " and every target it supports; PostgreSQL, and the query, batch-size and"
            " concurrency scenarios, use vigil-bench's own generator of the same shape",
        )
    return GeneratorInfo(
        kind="builtin",
        detail=f"vigil-bench's own node-exporter-like generator (1,383 series per host);"
        f" vigil-agent unavailable: {why_not}",
    )


def _write_run(run: BenchmarkRun, directory: Path | None) -> Path:
    d = directory or results_dir()
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{run.run_id}.json"
    path.write_text(run.to_json())
    return path


def _run_scenarios(args: argparse.Namespace, names: list[str], argv: list[str]) -> int:
    mods = _scenarios()
    ctx = RunContext.create(
        args.mode, args.systems or DEFAULT_SYSTEMS, keep=args.keep, tmp=args.tmp
    )
    run_id = args.run_id or (
        dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        + "-"
        + (names[0] if len(names) == 1 else "all")
    )
    results: list[ScenarioResult] = []
    interrupted = False
    try:
        for name in names:
            log(f"scenario {name} ({args.mode} mode), work dir {ctx.workdir}")
            sargs = args
            if args.command == "all":
                sp = build_parser()
                sargs = sp.parse_args([name, f"--{args.mode}"])
                sargs.systems = args.systems
            try:
                results.append(mods[name].run(ctx, sargs))
            except Exception as e:  # noqa: BLE001 - one broken scenario must not lose the others
                log(f"scenario {name} failed: {type(e).__name__}: {e}")
                results.append(
                    _failed(name, mods[name].TITLE, args.mode, f"{type(e).__name__}: {e}")
                )
            print(report.scenario_text(results[-1]), end="\n\n", flush=True)
    except KeyboardInterrupt:
        interrupted = True
        log("interrupted; stopping every system")
    finally:
        procs.stop_all()
        ctx.cleanup()
    if interrupted and not results:
        print(json.dumps({"interrupted": True, "valid": False}), flush=True)
        return 130
    agent_version = _agent_version()
    if agent_version:
        ctx.versions["vigil-agent"] = agent_version
    run = BenchmarkRun(
        run_id=run_id,
        created_at=dt.datetime.now(dt.UTC),
        command=argv,
        environment=environment.capture(ctx.versions),
        generator=_generator_info(),
        scenarios=results,
    )
    path = _write_run(run, args.results_dir)
    log(f"result written to {path}")
    if len(results) == 1:
        last = dict(results[0].summary)
        last["valid"] = results[0].valid
    else:
        last = {r.scenario: {**r.summary, "valid": r.valid} for r in results}  # type: ignore[misc]
    last["run_file"] = str(path)
    if args.upload:
        last["report_url"] = _upload_to_demo(run)
    print(json.dumps(last, default=str), flush=True)
    if interrupted:
        return 130
    return 0 if results and all(r.valid for r in results) else 1


def _upload_to_demo(run: BenchmarkRun) -> str | None:
    """Puts the run in the demo workspace's Benchmarks page when ``make up``'s stack is up."""
    from .systems.base import backend_url, read_env_file, vigil_home
    from .upload import UploadError, upload_to_demo

    demo_env = vigil_home() / "demo.env"
    if not demo_env.exists():
        log(f"not uploaded: no stack is up ({demo_env} is missing); see `vigil-bench upload`")
        return None
    try:
        url = upload_to_demo(run, demo_env=read_env_file(demo_env), backend=backend_url())
    except UploadError as e:
        log(f"not uploaded to the demo workspace: {e}")
        return None
    log(f"report: {url}")
    return url


def _failed(name: str, title: str, mode: Literal["small", "full"], reason: str) -> ScenarioResult:
    return ScenarioResult(
        scenario=name,
        title=title,
        mode=mode,
        valid=False,
        notes=[f"failed: {reason}"],
        started_at=dt.datetime.now(dt.UTC),
        duration_s=0,
    )


def _export(args: argparse.Namespace) -> int:
    run = _load_run(args.run_file)
    text = report.to_csv(run) if args.format == "csv" else report.to_markdown(run)
    if args.output:
        args.output.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def _load_run(path: Path) -> BenchmarkRun:
    try:
        return BenchmarkRun.from_json(path.read_bytes())
    except OSError as e:
        raise SystemExit(f"vigil-bench: cannot read {path}: {e.strerror}") from None
    except ValueError as e:
        raise SystemExit(f"vigil-bench: {path} is not a benchmark result document: {e}") from None


def _upload(args: argparse.Namespace) -> int:
    from .upload import UploadError, upload

    if not args.token:
        raise SystemExit("vigil-bench: upload needs a token: --token, or VIGIL_TOKEN")
    run = _load_run(args.run_file)
    try:
        created = upload(run, backend=args.backend, token=args.token, workspace=args.workspace)
    except UploadError as e:
        raise SystemExit(f"vigil-bench: upload failed: {e}") from None
    print(json.dumps(created))
    return 0


def _schema(args: argparse.Namespace) -> int:
    print(json.dumps(BenchmarkRun.model_json_schema(), indent=2))
    return 0


def _systems(args: argparse.Namespace) -> int:
    ctx = RunContext.create("small", list(SYSTEMS))
    try:
        _, infos = ctx.probe(list(SYSTEMS))
    finally:
        ctx.cleanup()
    for i in infos:
        print(f"{i.id:16} {'ok  ' if i.available else 'no  '} {i.version or i.reason or ''}")
    print(json.dumps({i.id: i.available for i in infos}))
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # `vigil-bench export ... | head`
        sys.stderr.close()
        return 0


def _main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    procs.install_signal_handlers()
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "schema": _schema,
        "export": _export,
        "upload": _upload,
        "systems": _systems,
    }
    if args.command in handlers:
        return handlers[args.command](args)
    names = (args.only or ALL) if args.command == "all" else [args.command]
    unknown = [n for n in names if n not in ALL]
    if unknown:
        raise SystemExit(
            f"vigil-bench: unknown scenario(s) {', '.join(unknown)}; known: {', '.join(ALL)}"
        )
    return _run_scenarios(args, names, ["vigil-bench", *argv])


if __name__ == "__main__":
    sys.exit(main())
