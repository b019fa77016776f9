"""The UI's audit log filters offer exactly the actions and target types the backend writes.

The UI reads its list from ``frontend/src/features/workspace-admin/auditActions.json``; this
test reads every ``audit.record(...)`` call in ``app/`` that names a workspace and compares.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "backend" / "app"
UI_LIST = REPO / "frontend" / "src" / "features" / "workspace-admin" / "auditActions.json"


def _strings(node: ast.expr) -> set[str]:
    """The string literals an argument can evaluate to (``"a" if x else "b"`` is both)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    raise AssertionError(
        f"line {node.lineno}: audit actions and target types must be string literals, "
        f"so the UI's list can be checked: {ast.unparse(node)}"
    )


def _recorded() -> tuple[set[str], set[str], list[str]]:
    """Actions and target types of workspace events, and where each call is (for messages)."""
    actions: set[str] = set()
    targets: set[str] = set()
    calls: list[str] = []
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "record"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "audit"
            ):
                continue
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            where = f"{path.relative_to(REPO)}:{node.lineno}"
            assert "action" in kw, f"{where}: audit.record without action="
            calls.append(where)
            workspace = kw.get("workspace_id")
            # Events without a workspace (sign-up, login…) never show in a workspace's log.
            if workspace is None or (
                isinstance(workspace, ast.Constant) and workspace.value is None
            ):
                continue
            actions |= _strings(kw["action"])
            if "target_type" in kw:
                targets |= _strings(kw["target_type"])
    return actions, targets, calls


def _ui_list() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(UI_LIST.read_text(encoding="utf-8"))
    return data


def test_the_scan_finds_the_audit_calls() -> None:
    actions, targets, calls = _recorded()
    # A guard against the scan silently matching nothing after a refactor.
    assert len(calls) >= 20, calls
    assert {"member.role_change", "limits.update", "benchmark.create"} <= actions
    assert {"user", "workspace", "benchmark_run"} <= targets


def test_every_recorded_action_is_offered_by_the_ui_and_no_other() -> None:
    actions, _, _ = _recorded()
    families = _ui_list()["families"]
    offered = [a for f in families for a in f["actions"]]
    assert len(offered) == len(set(offered)), "an action is listed twice"
    missing = sorted(actions - set(offered))
    stale = sorted(set(offered) - actions)
    assert not missing, f"add to {UI_LIST.relative_to(REPO)}: {missing}"
    assert not stale, f"the backend no longer records (remove from the UI's list): {stale}"


def test_each_action_is_in_its_family() -> None:
    families = _ui_list()["families"]
    assert len({f["family"] for f in families}) == len(families)
    for f in families:
        assert f["family"].endswith(".*") and f["label"] and f["actions"], f
        prefix = f["family"][:-1]
        assert all(a.startswith(prefix) for a in f["actions"]), f


def test_every_recorded_target_type_is_offered_by_the_ui_and_no_other() -> None:
    _, targets, _ = _recorded()
    offered = _ui_list()["targetTypes"]
    assert len(offered) == len(set(offered))
    assert sorted(targets) == sorted(offered)
