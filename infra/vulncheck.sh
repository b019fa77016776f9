#!/usr/bin/env bash
# govulncheck over every Go module of the repository (make lint).
#
# The vulnerability database is the Go team's own, as published in the golang.org/x/vulndb
# module on the Go module proxy (VIGIL_VULNDB_VERSION, a snapshot of its data/osv), turned
# into govulncheck's database layout once by vulndb's own cmd/indexdb and cached under
# $VIGIL_CACHE/vulndb/<version>. vuln.go.dev itself is not needed. Without the proxy and
# without a cached snapshot the check is skipped, saying so — it never passes silently.
# Bump VIGIL_VULNDB_VERSION in infra/defaults.env to a newer pseudo-version of
# golang.org/x/vulndb to take newer advisories.
source "$(dirname "$0")/lib.sh"

modules=(storage ingest/agent infra/compose)
tools="$VIGIL_CACHE/tools/go"
db="$VIGIL_CACHE/vulndb/$VIGIL_VULNDB_VERSION"
skip() {
  warn "govulncheck SKIPPED: $*"
  warn "the Go modules were NOT checked for known vulnerabilities"
  exit 0
}

install_tool() { # binary package@version
  local bin=$1 pkg=$2
  if [ -x "$tools/$bin" ] && go version -m "$tools/$bin" 2>/dev/null | grep -q "mod.*${pkg##*@}"; then return 0; fi
  mkdir -p "$tools"
  GOBIN="$tools" GOFLAGS= go install "$pkg" >> "$VIGIL_LOG/vulncheck.log" 2>&1
}

if [ ! -f "$db/index/db.json" ]; then
  install_tool indexdb "golang.org/x/vulndb/cmd/indexdb@$VIGIL_VULNDB_VERSION" \
    || skip "could not build golang.org/x/vulndb/cmd/indexdb@$VIGIL_VULNDB_VERSION from the Go module proxy (see ${VIGIL_LOG#"$VIGIL_ROOT"/}/vulncheck.log)"
  src=$(GOFLAGS= go mod download -json "golang.org/x/vulndb@$VIGIL_VULNDB_VERSION" 2>>"$VIGIL_LOG/vulncheck.log" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$src" ] && [ -d "$src/data/osv" ] \
    || skip "could not download the vulnerability database golang.org/x/vulndb@$VIGIL_VULNDB_VERSION from the Go module proxy"
  rm -rf "$db.tmp"
  "$tools/indexdb" -vulns "$src/data/osv" -out "$db.tmp" >> "$VIGIL_LOG/vulncheck.log" 2>&1 \
    || die "indexing the vulnerability database failed (see ${VIGIL_LOG#"$VIGIL_ROOT"/}/vulncheck.log)"
  mv "$db.tmp" "$db"
fi
install_tool govulncheck "golang.org/x/vuln/cmd/govulncheck@$VIGIL_GOVULNCHECK_VERSION" \
  || skip "could not build golang.org/x/vuln/cmd/govulncheck@$VIGIL_GOVULNCHECK_VERSION from the Go module proxy"

modified=$(sed -n 's/.*"modified":"\([^"]*\)".*/\1/p' "$db/index/db.json")
rc=0
for m in "${modules[@]}"; do
  if out=$("$tools/govulncheck" -db "file://$db" -C "$VIGIL_ROOT/$m" ./... 2>&1); then
    printf '  govulncheck %s: no vulnerability reachable (database of %s)\n' "$m" "${modified%%T*}"
  else
    printf '%s\n' "$out" >&2
    warn "govulncheck $m: vulnerable code is reachable (database golang.org/x/vulndb@$VIGIL_VULNDB_VERSION)"
    rc=1
  fi
done
exit "$rc"
