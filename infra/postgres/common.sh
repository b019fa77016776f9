# shellcheck shell=bash
# PostgreSQL 15 from Debian packages, one cluster per VIGIL_HOME, run as the 'postgres' OS user
# when invoked as root (initdb refuses root).
PG_BIN="${VIGIL_PG_BIN:-/usr/lib/postgresql/15/bin}"
PG_DATA="$VIGIL_DATA/postgres"
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
