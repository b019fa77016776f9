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

modules=(${VIGIL_VULNCHECK_MODULES:-storage ingest/agent infra/compose})
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

# govulncheck's JSON findings: reachable ones (a called function in the trace) in a required
# module fail the check; in the standard library they are the Go toolchain's, not the
# repository's: they are listed with the Go release that fixes them, as a warning.
summarize() { # module
  "${VIGIL_PYTHON:-python3}" -c '
import json, sys
module = sys.argv[1]
dec, text, pos, seen = json.JSONDecoder(), sys.stdin.read(), 0, {}
while True:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos >= len(text):
        break
    msg, pos = dec.raw_decode(text, pos)
    f = msg.get("finding")
    if not f or not f.get("trace") or not f["trace"][0].get("function"):
        continue  # imported or required only: not reachable
    top = f["trace"][0]
    key = (f["osv"], top["module"])
    if key in seen:
        continue
    caller = next((t for t in reversed(f["trace"]) if t.get("function")), top)
    seen[key] = "%s %s@%s, fixed in %s (reached from %s.%s)" % (
        f["osv"], top["module"], top.get("version", "?"), f.get("fixed_version", "no release yet"),
        caller.get("package", "?"), caller.get("function", "?"))
stdlib = sorted(v for (osv, mod), v in seen.items() if mod == "stdlib")
deps = sorted(v for (osv, mod), v in seen.items() if mod != "stdlib")
for line in deps:
    print("  govulncheck %s: %s" % (module, line), file=sys.stderr)
if stdlib:
    print("  ! govulncheck %s: %d vulnerabilities of the Go standard library are reachable; they are fixed by a newer Go toolchain, not by go.mod:" % (module, len(stdlib)), file=sys.stderr)
    for line in stdlib:
        print("      " + line, file=sys.stderr)
sys.exit(1 if deps else 0)
' "$1"
}

db_date=${VIGIL_VULNDB_VERSION#v0.0.0-}; db_date=${db_date:0:4}-${db_date:4:2}-${db_date:6:2}
rc=0
for m in "${modules[@]}"; do
  out=$("$tools/govulncheck" -db "file://$db" -C "$VIGIL_ROOT/$m" -format json ./... 2>"$VIGIL_LOG/vulncheck-${m//\//-}.log") \
    || { cat "$VIGIL_LOG/vulncheck-${m//\//-}.log" >&2; die "govulncheck could not analyse $m"; }
  if printf '%s' "$out" | summarize "$m"; then
    printf '  govulncheck %s: no vulnerable code of a required module is reachable (database of %s)\n' "$m" "$db_date"
  else
    warn "govulncheck $m: vulnerable code of a required module is reachable: raise it in $m/go.mod (database golang.org/x/vulndb@$VIGIL_VULNDB_VERSION)"
    rc=1
  fi
done
exit "$rc"
