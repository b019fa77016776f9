#!/usr/bin/env bash
# Fast shutdown (disconnects clients, checkpoints), then forget the pid.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/common.sh"
if is_running postgres && [ -f "$PG_DATA/postmaster.pid" ]; then
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" stop -m fast -w -t 60 >/dev/null 2>&1 || true
fi
stop_service postgres
