#!/usr/bin/env bash
# fuzz.sh FUZZTIME PACKAGE TARGET: coverage-guided fuzzing of one target for FUZZTIME.
#
# Fails on what fuzzing finds: an input that fails the target (Go writes it to
# testdata/fuzz/TARGET/ and prints "Failing input written to"), a panic, any other failure.
# Tolerates one thing only: Go's fuzz coordinator (before Go 1.27) can report a bare
# "context deadline exceeded" when -fuzztime ends while a worker is busy — a race in the
# toolchain (golang/go#75804), with no input behind it. Then the seed corpus is replayed as
# plain tests, and that decides.
#
# Minimization is bounded by FUZZMINIMIZETIME (default 1s) instead of Go's 60 s. Each time a
# worker finds new coverage, Go first shrinks that input (-fuzzminimizetime) and reports the
# worker's execs only when it is done; when the new coverage is not reproducible (a GC-emptied
# sync.Pool, a timing-dependent output such as dqlapi's "cost"), no shorter candidate keeps it
# and the worker walks all of its quadratically many candidates: with 60 s, two such inputs
# hold both workers for the rest of a 20 s run while the log shows "execs: N (0/sec)". The
# bound also applies to a failing input; its reproducer is written either way.
set -uo pipefail
fuzztime=$1 pkg=$2 target=$3
go=${GO:-go}
minimizetime=${FUZZMINIMIZETIME:-1s}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$go" test -run='^$' -fuzz="^${target}\$" -fuzztime="$fuzztime" -fuzzminimizetime="$minimizetime" "$pkg" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] && exit 0
if grep -q 'Failing input written to' "$log" || grep -qE '^(panic:|\s+--- FAIL: .*#)' "$log"; then
  exit "$status"
fi
# the only complaint must be the coordinator's deadline
if grep -qE '^\s+context deadline exceeded$' "$log" \
  && ! grep -vE '^(fuzz: |--- FAIL: '"$target"' |\s+context deadline exceeded$|FAIL|exit status|ok |PASS|.*INFO: )' "$log" | grep -q .; then
  echo "fuzz.sh: $target: -fuzztime ended during a worker's run (golang/go#75804), no failing input; replaying the corpus"
  exec "$go" test -run="^${target}\$" "$pkg"
fi
exit "$status"
