#!/usr/bin/env bash
# Start PostgreSQL on $VIGIL_POSTGRES_PORT with its cluster under $VIGIL_HOME/data/postgres;
# creates the cluster, the 'vigil' role and database on first start.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/common.sh"
[ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] || die "PostgreSQL server binaries missing: make install (or set VIGIL_PG_BIN)"
if [ "$(id -u)" = 0 ]; then
  # the postgres OS user must reach the data directory
  p="$PG_DATA"; while [ "$p" != / ]; do p=$(dirname "$p"); chmod o+x "$p" 2>/dev/null || true; done
fi
if [ ! -f "$PG_DATA/PG_VERSION" ]; then
  say "creating PostgreSQL cluster in $PG_DATA"
  mkdir -p "$PG_DATA"; [ "$(id -u)" = 0 ] && chown postgres:postgres "$PG_DATA"
  chmod 700 "$PG_DATA"
  pwfile=$(mktemp); echo vigil > "$pwfile"; chmod 644 "$pwfile"
  as_pg "$PG_BIN/initdb" -D "$PG_DATA" -U vigil --pwfile="$pwfile" -A scram-sha-256 -E UTF8 --locale=C.UTF-8 \
    >> "$VIGIL_LOG/postgres.log" 2>&1 || { rm -f "$pwfile"; fail_service postgres "initdb failed"; }
  rm -f "$pwfile"
  cat >> "$PG_DATA/postgresql.conf" <<CONF
listen_addresses = '$VIGIL_HOST'
port = $VIGIL_POSTGRES_PORT
unix_socket_directories = ''
max_connections = 200
shared_buffers = 256MB
fsync = on
CONF
fi
if is_running postgres; then ok "postgres already running (pid $(pid_of postgres))"; else
  require_port "$VIGIL_POSTGRES_PORT" VIGIL_POSTGRES_PORT
  touch "$VIGIL_LOG/postgres.log"; [ "$(id -u)" = 0 ] && chown postgres "$VIGIL_LOG/postgres.log"
  # postgres runs in the foreground under setsid so stop_service can signal its group
  if [ "$(id -u)" = 0 ]; then run=(runuser -u postgres --); else run=(); fi
  start_service postgres "" VIGIL_POSTGRES_PORT "${run[@]}" "$PG_BIN/postgres" -D "$PG_DATA" -p "$VIGIL_POSTGRES_PORT"
  wait_port postgres "$VIGIL_POSTGRES_PORT" 30
fi
export PGPASSWORD=vigil
for _ in $(seq 1 40); do "$PG_BIN/pg_isready" -q -h "$VIGIL_HOST" -p "$VIGIL_POSTGRES_PORT" && break; sleep 0.25; done
if ! "$PG_BIN/psql" -h "$VIGIL_HOST" -p "$VIGIL_POSTGRES_PORT" -U vigil -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname='vigil'" | grep -q 1; then
  "$PG_BIN/createdb" -h "$VIGIL_HOST" -p "$VIGIL_POSTGRES_PORT" -U vigil vigil || fail_service postgres "could not create database vigil"
  ok "database vigil created"
fi
