#!/usr/bin/env bash
# One line per service: running or not, pid, and what its health check says.
source "$(dirname "$0")/lib.sh"
set +e
check() { # name probe...
  local name=$1; shift
  local state pid health
  if is_running "$name"; then pid=$(pid_of "$name"); state="${_g}running${_n}"; else pid=-; state="${_r}stopped${_n}"; fi
  if "$@" >/dev/null 2>&1; then health="${_g}healthy${_n}"; else health="${_r}unhealthy${_n}"; fi
  printf '  %-10s %-18s pid %-8s %s\n' "$name" "$state" "$pid" "$health"
}
http() { curl -fsS --max-time 3 "$1"; }
say "Vigil services (${VIGIL_HOME#"$VIGIL_ROOT"/})"
check postgres "${VIGIL_PG_BIN:-/usr/bin}/pg_isready" -q -h "$VIGIL_HOST" -p "$VIGIL_POSTGRES_PORT"
check kafka port_in_use "$VIGIL_KAFKA_PORT"
check storage http "$VIGIL_STORAGE_URL/health"
check gateway http "$VIGIL_GATEWAY_URL/health"
check consumer http "$VIGIL_CONSUMER_URL/health"
check backend http "$VIGIL_BACKEND_URL/api/health"
check alerting http "$VIGIL_ALERTING_URL/health"
check agent is_running agent
check mail http "$VIGIL_MAIL_URL/health"
# every component's check needs the internal token (anonymous callers get up/down only); it
# goes to curl on stdin, out of the process list
load_secrets
if out=$(printf 'Authorization: Bearer %s\n' "$VIGIL_INTERNAL_TOKEN" |
  curl -fsS --max-time 8 -H @- "$VIGIL_BACKEND_URL/api/health" 2>/dev/null); then
  printf '\n  /api/health: %s\n' "$out"
fi
