"""Every router of the API, in one list."""

from fastapi import APIRouter

from app.api.routes import (
    alerts,
    api_keys,
    audit,
    auth,
    benchmarks,
    channels,
    dashboards,
    limits,
    members,
    meta,
    monitors,
    operator,
    query,
    recording_rules,
    saved_queries,
    silences,
    workspaces,
)

# A router tries its routes in turn: the query API, the busiest (every panel of every
# dashboard), comes first.
api_router = APIRouter()
api_router.include_router(query.router)
api_router.include_router(auth.router)
api_router.include_router(workspaces.router)
api_router.include_router(members.router)
api_router.include_router(members.invitations_router)
api_router.include_router(api_keys.router)
api_router.include_router(limits.router)
api_router.include_router(audit.router)
api_router.include_router(dashboards.router)
api_router.include_router(saved_queries.router)
api_router.include_router(benchmarks.router)
api_router.include_router(meta.router)
api_router.include_router(operator.router)
api_router.include_router(monitors.router)
api_router.include_router(alerts.router)
api_router.include_router(silences.router)
api_router.include_router(channels.router)
api_router.include_router(recording_rules.router)

# Mounted at the root, outside /api/v1: the DataKit-compatible DQL path and the
# Prometheus API where the query key picks the workspace.
root_router = APIRouter()
root_router.include_router(query.public_router)
