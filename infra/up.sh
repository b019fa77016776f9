#!/usr/bin/env bash
# Install what is missing, start the whole stack on loopback, create the demo workspace and
# start the demo agent. Idempotent: running services are left alone.
source "$(dirname "$0")/lib.sh"
"$VIGIL_ROOT/infra/install.sh"
load_secrets
py="$VIGIL_VENV/bin"

say "starting services (logs in ${VIGIL_LOG#"$VIGIL_ROOT"/})"
"$VIGIL_ROOT/infra/postgres/start.sh"
"$VIGIL_ROOT/infra/kafka/start.sh"
"$py/python" -c 'import os; from vigil_ingest.common.kafka import ensure_topics
ensure_topics([os.environ["VIGIL_KAFKA_BOOTSTRAP"]], int(os.environ["VIGIL_KAFKA_PARTITIONS"]), timeout_s=60)' \
  >> "$VIGIL_LOG/kafka.log" 2>&1 || fail_service kafka "could not create the Kafka topics"
ok "kafka topics present"

mkdir -p "$VIGIL_DATA/storage"
# VIGIL_LOG_FORMAT (text|json) as VictoriaMetrics' -loggerFormat (default|json)
storage_log_format=default; [ "$VIGIL_LOG_FORMAT" = json ] && storage_log_format=json
# shellcheck disable=SC2086 # VIGIL_STORAGE_FLAGS holds zero or more flags
start_service storage "$VIGIL_STORAGE_PORT" VIGIL_STORAGE_PORT "$VIGIL_BIN/vigil-storage" \
  -httpListenAddr="$VIGIL_HOST:$VIGIL_STORAGE_PORT" \
  -storageDataPath="$VIGIL_DATA/storage" \
  -tenancy.internalTokenFile="$VIGIL_HOME/internal_token" \
  -retentionPeriod="$VIGIL_RETENTION" \
  -dedup.minScrapeInterval=1ms \
  -search.latencyOffset=1s \
  -loggerFormat="$storage_log_format" \
  $VIGIL_STORAGE_FLAGS
wait_http storage "$VIGIL_STORAGE_URL/health" 60

start_service mail "$VIGIL_MAIL_HTTP_PORT" VIGIL_MAIL_HTTP_PORT "$py/python" "$VIGIL_ROOT/infra/mail/mailsink.py" \
  --host "$VIGIL_HOST" --smtp-port "$VIGIL_MAIL_SMTP_PORT" --http-port "$VIGIL_MAIL_HTTP_PORT"
wait_http mail "$VIGIL_MAIL_URL/health" 30

"$py/vigil-admin" migrate >> "$VIGIL_LOG/backend.log" 2>&1 || fail_service backend "database migrations failed"
ok "database migrated"

start_service gateway "$VIGIL_GATEWAY_PORT" VIGIL_GATEWAY_PORT "$py/vigil-gateway"
start_service consumer "$VIGIL_CONSUMER_PORT" VIGIL_CONSUMER_PORT "$py/vigil-consumer"
start_service backend "$VIGIL_BACKEND_PORT" VIGIL_BACKEND_PORT "$py/uvicorn" app.main:app \
  --app-dir "$VIGIL_ROOT/backend" --host "$VIGIL_HOST" --port "$VIGIL_BACKEND_PORT" --no-access-log
start_service alerting "$VIGIL_ALERTING_PORT" VIGIL_ALERTING_PORT "$py/vigil-alerting" \
  --host "$VIGIL_HOST" --port "$VIGIL_ALERTING_PORT"
wait_http gateway "$VIGIL_GATEWAY_URL/health" 60
wait_http consumer "$VIGIL_CONSUMER_URL/health" 60
wait_http backend "$VIGIL_BACKEND_URL/api/openapi.json" 60
wait_http alerting "$VIGIL_ALERTING_URL/health" 60

"$py/vigil-admin" demo --env-file "$VIGIL_HOME/demo.env" >> "$VIGIL_LOG/backend.log" 2>&1 \
  || fail_service backend "creating the demo workspace failed"
# shellcheck disable=SC1091
source "$VIGIL_HOME/demo.env"
ok "demo workspace ready"

mkdir -p "$VIGIL_DATA/agent"
# the key travels in the environment, not on the command line where `ps` shows it
# It also scrapes every service's /metrics into the demo workspace ("Vigil itself" dashboard);
# storage's and the gateway's /metrics want the internal token, which every scraped service holds.
VIGIL_INGEST_KEY="$VIGIL_DEMO_INGEST_KEY" start_service agent "" "" "$VIGIL_BIN/vigil-agent" \
  -gateway.url="$VIGIL_GATEWAY_URL" \
  -interval="$VIGIL_AGENT_INTERVAL" -buffer.path="$VIGIL_DATA/agent/buffer" \
  -scrape.targets="$VIGIL_BACKEND_URL/metrics,$VIGIL_GATEWAY_URL/metrics,$VIGIL_CONSUMER_URL/metrics,$VIGIL_STORAGE_URL/metrics,$VIGIL_ALERTING_URL/metrics" \
  -scrape.bearerTokenFile="$VIGIL_HOME/internal_token"
sleep 1; is_running agent || fail_service agent "the demo agent exited"
ok "demo agent shipping this machine's and Vigil's own metrics every $VIGIL_AGENT_INTERVAL"

cat <<MSG

${_b}Vigil is up.${_n}
  Open        $VIGIL_BACKEND_URL
  Log in as   $VIGIL_DEMO_EMAIL / $VIGIL_DEMO_PASSWORD
  Operator    $VIGIL_DEMO_OPERATOR_EMAIL / $VIGIL_DEMO_OPERATOR_PASSWORD   (plans, suspension, usage: $VIGIL_BACKEND_URL/operator)
  Keys        ingest $VIGIL_DEMO_INGEST_KEY
              query  $VIGIL_DEMO_QUERY_KEY   (all in ${VIGIL_HOME#"$VIGIL_ROOT"/}/demo.env)
  Try         curl -s -H "Authorization: Bearer \$VIGIL_DEMO_QUERY_KEY" -d '{"queries":[{"query":"M::cpu:(avg(usage_user)) [15m::1m] BY host"}]}' $VIGIL_BACKEND_URL/v1/query/raw
  Status      make status        Logs  ${VIGIL_LOG#"$VIGIL_ROOT"/}/<service>.log
  Stop        make down          (data stays in ${VIGIL_DATA#"$VIGIL_ROOT"/}; make up starts it again)
MSG
