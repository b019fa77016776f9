#!/usr/bin/env bash
# Install PostgreSQL 15 from Debian packages when it is missing (idempotent).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/common.sh"
if [ -x "$PG_BIN/initdb" ]; then ok "postgresql 15 present ($PG_BIN)"; exit 0; fi
say "installing PostgreSQL 15 from Debian packages"
[ "$(id -u)" = 0 ] || die "PostgreSQL 15 is missing and installing it needs root: apt-get install postgresql-15"
retry 3 apt-get update -qq || die "apt-get update failed"
retry 3 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 postgresql-client-15 \
  || die "could not install postgresql-15 from Debian packages"
[ -x "$PG_BIN/initdb" ] || die "postgresql-15 installed but $PG_BIN/initdb is missing"
ok "postgresql 15 installed"
