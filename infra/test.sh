#!/usr/bin/env bash
# make test: every suite, against real services started on their own ports and data
# directories (.vigil/test, ports 1xxxx), so a running `make up` is never disturbed.
# Exits non-zero when any suite fails and ends with a summary.
#   infra/test.sh                 all suites
#   VIGIL_TEST_ONLY="go-storage e2e" infra/test.sh   a subset, by suite name
root="$(cd "$(dirname "$0")/.." && pwd)"
export VIGIL_HOME="${VIGIL_TEST_HOME:-$root/.vigil/test}"
export VIGIL_BACKEND_PORT="${VIGIL_TEST_BACKEND_PORT:-18000}"
export VIGIL_GATEWAY_PORT="${VIGIL_TEST_GATEWAY_PORT:-18001}"
export VIGIL_CONSUMER_PORT="${VIGIL_TEST_CONSUMER_PORT:-18002}"
export VIGIL_ALERTING_PORT="${VIGIL_TEST_ALERTING_PORT:-18003}"
export VIGIL_MAIL_SMTP_PORT="${VIGIL_TEST_MAIL_SMTP_PORT:-18025}"
export VIGIL_MAIL_HTTP_PORT="${VIGIL_TEST_MAIL_HTTP_PORT:-18026}"
export VIGIL_STORAGE_PORT="${VIGIL_TEST_STORAGE_PORT:-18482}"
export VIGIL_POSTGRES_PORT="${VIGIL_TEST_POSTGRES_PORT:-15432}"
export VIGIL_KAFKA_PORT="${VIGIL_TEST_KAFKA_PORT:-19092}"
export VIGIL_KAFKA_CONTROLLER_PORT="${VIGIL_TEST_KAFKA_CONTROLLER_PORT:-19093}"
export VIGIL_AGENT_INTERVAL="${VIGIL_TEST_AGENT_INTERVAL:-2s}"
# storage writes each workspace's active series every 2 s instead of every minute, so that the
# usage history shows them within the stack tests' patience
export VIGIL_STORAGE_FLAGS="${VIGIL_STORAGE_FLAGS:-} -ingest.activeSeriesReportInterval=2s"
export VIGIL_PORT_HINT=test
# URLs derive from the ports above, never from a caller's `make up` environment.
unset VIGIL_DATABASE_URL VIGIL_KAFKA_BOOTSTRAP VIGIL_STORAGE_URL VIGIL_GATEWAY_URL \
  VIGIL_PUBLIC_GATEWAY_URL VIGIL_CONSUMER_URL VIGIL_BACKEND_URL VIGIL_INTERNAL_TOKEN VIGIL_SECRET_KEY \
  VIGIL_ALERTING_URL VIGIL_MAIL_URL VIGIL_SMTP_HOST VIGIL_SMTP_PORT VIGIL_PUBLIC_URL
# the system and browser tests run their webhook receivers on loopback: allowed here only
export VIGIL_ALERTING_WEBHOOK_ALLOW_HOSTS="${VIGIL_TEST_WEBHOOK_ALLOW_HOSTS:-127.0.0.1/32}"
source "$root/infra/lib.sh"
set +e

only=" ${VIGIL_TEST_ONLY:-} "
names=(); results=(); times=()
suite() { # name cmd...
  local name=$1; shift
  if [ "$only" != "  " ] && [[ "$only" != *" $name "* ]]; then return 0; fi
  say "suite $name"
  local t0=$SECONDS
  ( "$@" ) 2>&1 | tee "$VIGIL_LOG/test-$name.log"
  local rc=${PIPESTATUS[0]}
  names+=("$name"); results+=("$rc"); times+=($((SECONDS - t0)))
  if [ "$rc" -eq 0 ]; then ok "$name passed"; else warn "$name FAILED (exit $rc, log ${VIGIL_LOG#"$VIGIL_ROOT"/}/test-$name.log)"; fi
}
stack_down() { "$VIGIL_ROOT/infra/down.sh" >/dev/null 2>&1; }
trap stack_down EXIT

say "installing (idempotent)"
"$VIGIL_ROOT/infra/install.sh" test || exit 1
py="$VIGIL_VENV/bin"

# A clean test stack every run.
stack_down
rm -rf "$VIGIL_DATA" "$VIGIL_HOME/demo.env"; mkdir -p "$VIGIL_DATA"

# --- suites that need no services ------------------------------------------------------------------
# docker-compose.yml and docker-compose.prod.yml loaded as `docker compose config` does, and
# checked against the Dockerfiles (infra/compose: no Docker engine or CLI needed)
suite compose bash -c "cd '$VIGIL_ROOT/infra/compose' && go test -count=1 ./..."
suite go-storage make -s -C "$VIGIL_ROOT/storage" test
suite go-race make -s -C "$VIGIL_ROOT/storage" race
suite go-dql-fuzz make -s -C "$VIGIL_ROOT/storage" fuzz FUZZTIME="${VIGIL_FUZZTIME:-20s}"
suite go-agent make -s -C "$VIGIL_ROOT/ingest/agent" test
suite defaults "$py/pytest" -q "$VIGIL_ROOT/infra/tests/test_defaults.py"
suite ingest-unit "$py/pytest" -q -m "not integration" "$VIGIL_ROOT/ingest/tests"
suite bench-unit "$py/pytest" -q "$VIGIL_ROOT/bench/tests"
suite lint make -s -C "$VIGIL_ROOT" lint
suite frontend-unit bash -c "cd '$VIGIL_ROOT/frontend' && npm test --silent"

# --- the real stack on test ports ---------------------------------------------------------------------
say "starting the test stack"
if "$VIGIL_ROOT/infra/up.sh" > "$VIGIL_LOG/test-up.log" 2>&1; then
  ok "test stack up"; stack=0
else
  warn "test stack failed to start:"; tail -n 60 "$VIGIL_LOG/test-up.log" >&2; stack=1
fi
names+=("stack-up"); results+=("$stack"); times+=(0)
if [ "$stack" -eq 0 ]; then
  set -a; source "$VIGIL_HOME/demo.env"; set +a
  export VIGIL_BASE_URL="$VIGIL_BACKEND_URL" VIGIL_INTERNAL_TOKEN VIGIL_SECRET_KEY
  suite backend env VIGIL_REQUIRE_PROMTOOL=1 "$py/pytest" -q "$VIGIL_ROOT/backend/tests"
  suite ingest-integration env VIGIL_REQUIRE_SERVICES=1 "$py/pytest" -q -m integration "$VIGIL_ROOT/ingest/tests"
  suite stack "$py/pytest" -q "$VIGIL_ROOT/infra/tests"
  suite e2e bash -c "cd '$VIGIL_ROOT/e2e' && npx playwright test"
  # the UI benchmark once, so `make bench-ui` keeps working (figures are not asserted)
  suite bench-ui bash -c "cd '$VIGIL_ROOT/e2e' && BENCH_UI_RUNS=1 BENCH_UI_FAILURE_PNG='$VIGIL_LOG/bench-ui-failure.png' node bench/ui-dashboard.mjs"
  # the alerting benchmark in small mode, so `make bench-alerts` keeps working
  suite bench-alerts "$py/python" "$VIGIL_ROOT/backend/scripts/bench_alerts.py" --small --env-file "$VIGIL_HOME/demo.env"
  # every benchmark scenario in small mode, the full Vigil path against this test stack
  suite bench-small "$py/vigil-bench" all --small --results-dir "$VIGIL_HOME/bench"
fi
stack_down; trap - EXIT

# --- summary ----------------------------------------------------------------------------------------
passed=0; failed=0
say "summary"
for i in "${!names[@]}"; do
  if [ "${results[$i]}" -eq 0 ]; then passed=$((passed + 1)); s="${_g}pass${_n}"; else failed=$((failed + 1)); s="${_r}FAIL${_n}"; fi
  printf '  %-20s %s  %4ss\n' "${names[$i]}" "$s" "${times[$i]}"
done
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
