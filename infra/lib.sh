# Shared shell functions for infra/ scripts. Source it; it sets up the environment every
# service reads (see docs/internals.md) from infra/defaults.env and VIGIL_* overrides.
# shellcheck shell=bash

set -euo pipefail

VIGIL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export VIGIL_ROOT

# Apply defaults.env without overriding what the caller already set.
while IFS='=' read -r _k _v; do
  case "$_k" in ''|\#*) continue ;; esac
  if [ -z "${!_k:-}" ]; then export "$_k=$_v"; fi
done < "$VIGIL_ROOT/infra/defaults.env"
unset _k _v

export VIGIL_HOME="${VIGIL_HOME:-$VIGIL_ROOT/.vigil}"
case "$VIGIL_HOME" in /*) ;; *) VIGIL_HOME="$VIGIL_ROOT/$VIGIL_HOME" ;; esac
# Caches shared by every profile (the test stack's VIGIL_HOME lives below the main one).
export VIGIL_CACHE="${VIGIL_CACHE:-$VIGIL_ROOT/.vigil}"
export VIGIL_BIN="${VIGIL_BIN:-$VIGIL_CACHE/bin}"
export VIGIL_VENV="${VIGIL_VENV:-$VIGIL_CACHE/venv}"
export VIGIL_DOWNLOADS="${VIGIL_DOWNLOADS:-$VIGIL_CACHE/downloads}"
VIGIL_RUN="$VIGIL_HOME/run"
VIGIL_LOG="$VIGIL_HOME/log"
VIGIL_DATA="$VIGIL_HOME/data"
mkdir -p "$VIGIL_RUN" "$VIGIL_LOG" "$VIGIL_DATA" "$VIGIL_BIN"

export VIGIL_DATABASE_URL="${VIGIL_DATABASE_URL:-postgresql+psycopg://vigil:vigil@$VIGIL_HOST:$VIGIL_POSTGRES_PORT/vigil}"
export VIGIL_KAFKA_BOOTSTRAP="${VIGIL_KAFKA_BOOTSTRAP:-$VIGIL_HOST:$VIGIL_KAFKA_PORT}"
export VIGIL_STORAGE_URL="${VIGIL_STORAGE_URL:-http://$VIGIL_HOST:$VIGIL_STORAGE_PORT}"
export VIGIL_GATEWAY_URL="${VIGIL_GATEWAY_URL:-http://$VIGIL_HOST:$VIGIL_GATEWAY_PORT}"
export VIGIL_CONSUMER_URL="${VIGIL_CONSUMER_URL:-http://$VIGIL_HOST:$VIGIL_CONSUMER_PORT}"
export VIGIL_BACKEND_URL="${VIGIL_BACKEND_URL:-http://$VIGIL_HOST:$VIGIL_BACKEND_PORT}"
export VIGIL_ALERTING_URL="${VIGIL_ALERTING_URL:-http://$VIGIL_HOST:$VIGIL_ALERTING_PORT}"
export VIGIL_MAIL_URL="${VIGIL_MAIL_URL:-http://$VIGIL_HOST:$VIGIL_MAIL_HTTP_PORT}"
# where people open the UI: the base of the links in emails and notifications
export VIGIL_PUBLIC_URL="${VIGIL_PUBLIC_URL:-$VIGIL_BACKEND_URL}"
# The stacks this script starts are a developer's own: the backend may run with generated or
# placeholder secrets here. Images and production never set this (they refuse placeholders).
export VIGIL_ENVIRONMENT="${VIGIL_ENVIRONMENT:-development}"
# Every test journey signs people up from this machine's one address; a deployment keeps the
# backend's default (10 sign-up or reset requests per client and hour).
export VIGIL_EMAIL_REQUESTS_PER_CLIENT_PER_HOUR="${VIGIL_EMAIL_REQUESTS_PER_CLIENT_PER_HOUR:-1000}"
# Email leaves through the local mail sink unless an SMTP server is configured.
if [ -z "${VIGIL_SMTP_HOST:-}" ]; then
  export VIGIL_SMTP_HOST="$VIGIL_HOST" VIGIL_SMTP_PORT="$VIGIL_MAIL_SMTP_PORT"
fi
# The gateway address the UI gives users for their agents. On a wildcard address the UI
# uses the host it was opened at instead (with port 8001).
case "$VIGIL_HOST" in
  0.0.0.0|::|"[::]") ;;
  *) export VIGIL_PUBLIC_GATEWAY_URL="${VIGIL_PUBLIC_GATEWAY_URL:-$VIGIL_GATEWAY_URL}" ;;
esac
# PostgreSQL's server binaries: the newest Debian cluster version installed, 15 or newer
# (Debian 12 ships 15, Debian 13 ships 17), unless VIGIL_PG_BIN names them.
if [ -z "${VIGIL_PG_BIN:-}" ]; then
  for _d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5n -r); do
    _v=${_d#/usr/lib/postgresql/}; _v=${_v%/bin}
    if [ "$_v" -ge 15 ] 2>/dev/null && [ -x "$_d/initdb" ]; then VIGIL_PG_BIN=$_d; break; fi
  done
  unset _d _v
fi
[ -z "${VIGIL_PG_BIN:-}" ] || export VIGIL_PG_BIN
export VIGIL_UI_DIR="${VIGIL_UI_DIR:-$VIGIL_ROOT/frontend/dist}"
export GOFLAGS="${GOFLAGS:--mod=mod}"

if [ -t 1 ]; then _b=$'\e[1m'; _r=$'\e[31m'; _g=$'\e[32m'; _y=$'\e[33m'; _n=$'\e[0m'; else _b= _r= _g= _y= _n=; fi
say()  { printf '%s==>%s %s\n' "$_b" "$_n" "$*"; }
ok()   { printf '  %s✓%s %s\n' "$_g" "$_n" "$*"; }
warn() { printf '  %s!%s %s\n' "$_y" "$_n" "$*" >&2; }
die()  { printf '%serror:%s %s\n' "$_r" "$_n" "$*" >&2; exit 1; }

# Generated secrets, one file each, created once per VIGIL_HOME.
secret_file() {
  local f="$VIGIL_HOME/$1"
  if [ ! -s "$f" ]; then (umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$f"); fi
  cat "$f"
}
load_secrets() {
  export VIGIL_INTERNAL_TOKEN="${VIGIL_INTERNAL_TOKEN:-$(secret_file internal_token)}"
  export VIGIL_SECRET_KEY="${VIGIL_SECRET_KEY:-$(secret_file secret_key)}"
}

# retry N CMD...: run CMD up to N times with a growing pause; name what failed.
retry() {
  local n=$1 i=1; shift
  until "$@"; do
    if [ "$i" -ge "$n" ]; then warn "failed after $n attempts: $*"; return 1; fi
    warn "attempt $i of $n failed: $*; retrying in $((i * 5)) s"
    sleep $((i * 5)); i=$((i + 1))
  done
}

port_in_use() { (exec 3<>"/dev/tcp/$VIGIL_HOST/$1") 2>/dev/null; }

# require_port PORT VAR: fail clearly when a port we are about to bind is taken. The test
# runner sets VIGIL_PORT_HINT=test so the message names the variable that moves its ports.
require_port() {
  if port_in_use "$1"; then
    local var=$2 cmd="make up"
    if [ "${VIGIL_PORT_HINT:-}" = test ]; then var="VIGIL_TEST_${2#VIGIL_}"; cmd="make test"; fi
    die "port $1 on $VIGIL_HOST is already in use by another process; set $var to move it (e.g. $var=$(($1 + 100)) $cmd)"
  fi
}

pid_of() { local f="$VIGIL_RUN/$1.pid"; [ -s "$f" ] && cat "$f"; }
is_running() { local p; p=$(pid_of "$1") && [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }

# start_service NAME PORT PORTVAR CMD...: start CMD in the background, log and pid under VIGIL_HOME.
start_service() {
  local name=$1 port=$2 var=$3; shift 3
  if is_running "$name"; then ok "$name already running (pid $(pid_of "$name"))"; return 0; fi
  [ -n "$port" ] && require_port "$port" "$var"
  printf '\n=== %s start %s ===\n' "$name" "$(date -u +%FT%TZ)" >> "$VIGIL_LOG/$name.log"
  setsid nohup "$@" >> "$VIGIL_LOG/$name.log" 2>&1 < /dev/null &
  echo $! > "$VIGIL_RUN/$name.pid"
}

# fail_service NAME MESSAGE: print the tail of the service's log and stop.
fail_service() {
  warn "$2"
  printf -- '--- last lines of %s ---\n' "$VIGIL_LOG/$1.log" >&2
  tail -n 40 "$VIGIL_LOG/$1.log" >&2 || true
  exit 1
}

# wait_http NAME URL [SECONDS]: wait until URL answers 2xx while the service stays alive.
wait_http() {
  local name=$1 url=$2 secs=${3:-60} i=0
  while [ "$i" -lt $((secs * 4)) ]; do
    if curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; then ok "$name up ($url)"; return 0; fi
    if ! is_running "$name"; then fail_service "$name" "$name exited during start-up"; fi
    sleep 0.25; i=$((i + 1))
  done
  fail_service "$name" "$name did not answer $url within ${secs}s"
}

# wait_port NAME PORT [SECONDS]
wait_port() {
  local name=$1 port=$2 secs=${3:-60} i=0
  while [ "$i" -lt $((secs * 4)) ]; do
    if port_in_use "$port"; then ok "$name up ($VIGIL_HOST:$port)"; return 0; fi
    if ! is_running "$name"; then fail_service "$name" "$name exited during start-up"; fi
    sleep 0.25; i=$((i + 1))
  done
  fail_service "$name" "$name did not listen on port $port within ${secs}s"
}

# stop_service NAME: TERM the process group, wait, then KILL.
stop_service() {
  local name=$1 pid i=0
  pid=$(pid_of "$name") || { return 0; }
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 120 ]; do sleep 0.25; i=$((i + 1)); done
    if kill -0 "$pid" 2>/dev/null; then
      warn "$name did not stop in 30 s; killing it"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
    ok "$name stopped"
  fi
  rm -f "$VIGIL_RUN/$name.pid"
}

venv_python() { echo "$VIGIL_VENV/bin/python"; }

# version_ge A B: version A is B or newer (1.26.10 >= 1.26.5).
version_ge() { [ -n "$1" ] && [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]; }
