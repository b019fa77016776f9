# shellcheck shell=bash
# PostgreSQL (15 or newer) from Debian packages, one cluster per VIGIL_HOME, run as the
# 'postgres' OS user when invoked as root (initdb refuses root). lib.sh finds the server
# binaries (VIGIL_PG_BIN).
PG_BIN="${VIGIL_PG_BIN:-}"
PG_DATA="$VIGIL_DATA/postgres"
# an existing cluster keeps the server version that created it
if _v=$(cat "$PG_DATA/PG_VERSION" 2>/dev/null) && [ -x "/usr/lib/postgresql/$_v/bin/postgres" ]; then
  PG_BIN="/usr/lib/postgresql/$_v/bin"
fi
unset _v
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
