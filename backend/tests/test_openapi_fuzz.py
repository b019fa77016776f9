"""A short schemathesis run over the whole OpenAPI surface: no request may produce a 5xx.

Requests are signed in as the owner of a real workspace who is also a platform operator, every
``workspace_id`` is that workspace and every ``plan_id`` a real plan, so the fuzzer reaches
past authentication into validation and the handlers, the operator API's included.
Storage answers through StorageMock.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from app.main import create_app
from app.schemas.plan import PlanBounds
from tests.factories import create_key, create_workspace, signup_operator
from tests.storage_mock import StorageMock

_mock = StorageMock()
app = create_app(storage=_mock.client(), async_storage=_mock.async_client())
PLAN_FIELDS = set(PlanBounds.model_fields)
# Keep it short: only the fuzzing phase, a few examples per operation (~1 minute on 2 cores).
config = SchemathesisConfig.from_dict(
    {
        "phases": {
            "examples": {"enabled": False},
            "coverage": {"enabled": False},
            "stateful": {"enabled": False},
        },
        "generation": {"max-examples": 12},
    }
)
schema = (
    schemathesis.openapi.from_asgi("/api/openapi.json", app, config=config)
    # these two end the fuzzer's own session, which would leave everything after them at 401
    .exclude(path="/api/v1/auth/logout")
    .exclude(path="/api/v1/auth/password")
)


@pytest.fixture(scope="module")
def auth() -> dict[str, Any]:
    with TestClient(app, client=("10.98.0.1", 50000)) as client:
        user = signup_operator(client)
        ws = create_workspace(client, user)
        key = create_key(client, user, ws["id"], "query")
        plans = client.get("/api/v1/operator/plans", headers=user.headers).json()["data"]
        fuzzed = client.post(
            "/api/v1/operator/plans",
            json={**{k: v for k, v in plans[0].items() if k in PLAN_FIELDS}, "name": "fuzzed"},
            headers=user.headers,
        )
        assert fuzzed.status_code == 201, fuzzed.text
    return {
        "headers": user.headers,
        "workspace_id": ws["id"],
        "plan_id": fuzzed.json()["id"],
        "key": key["key"],
    }


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_errors(case: Any, auth: dict[str, Any]) -> None:
    for name in ("workspace_id", "plan_id"):
        if case.path_parameters and name in case.path_parameters:
            case.path_parameters[name] = auth[name]
    headers = dict(auth["headers"])
    if not case.path.startswith("/api/"):
        headers["Authorization"] = f"Token {auth['key']}"
    response = case.call(headers=headers)
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])
