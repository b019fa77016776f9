#!/usr/bin/env bash
# Start a one-node Kafka in KRaft mode on $VIGIL_KAFKA_PORT with data under $VIGIL_HOME/data/kafka.
source "$(dirname "$0")/../lib.sh"
libs="$VIGIL_DOWNLOADS/kafka-$VIGIL_KAFKA_VERSION/libs"
[ -d "$libs" ] || die "Kafka jars missing in $libs: run infra/kafka/install.sh (make install)"
if is_running kafka; then ok "kafka already running (pid $(pid_of kafka))"; exit 0; fi
data="$VIGIL_DATA/kafka"; conf="$data/server.properties"
mkdir -p "$data"
cat > "$conf" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$VIGIL_HOST:$VIGIL_KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$VIGIL_HOST:$VIGIL_KAFKA_PORT,CONTROLLER://$VIGIL_HOST:$VIGIL_KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$VIGIL_HOST:$VIGIL_KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$data/logs
num.partitions=$VIGIL_KAFKA_PARTITIONS
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=8
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.retention.hours=168
message.max.bytes=67108864
replica.fetch.max.bytes=67108864
PROPS
java_opts=(-Xms256m -Xmx1g -XX:+UseG1GC -Djava.awt.headless=true
  "-Dlog4j2.configurationFile=$VIGIL_ROOT/infra/kafka/log4j2.yaml" -cp "$libs/*")
if [ ! -f "$data/logs/meta.properties" ]; then
  say "formatting Kafka storage in $data/logs"
  cluster_id=$(java "${java_opts[@]}" kafka.tools.StorageTool random-uuid)
  java "${java_opts[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$conf" >> "$VIGIL_LOG/kafka.log" 2>&1 \
    || fail_service kafka "formatting Kafka storage failed"
fi
require_port "$VIGIL_KAFKA_CONTROLLER_PORT" VIGIL_KAFKA_CONTROLLER_PORT
start_service kafka "$VIGIL_KAFKA_PORT" VIGIL_KAFKA_PORT java "${java_opts[@]}" kafka.Kafka "$conf"
wait_port kafka "$VIGIL_KAFKA_PORT" 90
