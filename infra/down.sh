#!/usr/bin/env bash
# Stop every service started by infra/up.sh, in reverse dependency order. Data stays.
source "$(dirname "$0")/lib.sh"
say "stopping Vigil (${VIGIL_HOME#"$VIGIL_ROOT"/})"
for s in agent alerting backend consumer gateway mail storage; do stop_service "$s"; done
"$VIGIL_ROOT/infra/kafka/stop.sh"
"$VIGIL_ROOT/infra/postgres/stop.sh"
ok "all stopped"
