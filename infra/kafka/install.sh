#!/usr/bin/env bash
# Resolve Kafka's jars from Maven Central into $VIGIL_DOWNLOADS/kafka-<version>/libs (idempotent).
source "$(dirname "$0")/../lib.sh"
dest="$VIGIL_DOWNLOADS/kafka-$VIGIL_KAFKA_VERSION"
if [ -f "$dest/.complete" ]; then ok "kafka $VIGIL_KAFKA_VERSION jars present"; exit 0; fi
command -v java >/dev/null || die "java is required for Kafka (apt-get install default-jre-headless)"
command -v mvn >/dev/null || die "maven is required to fetch Kafka's jars (apt-get install maven)"
say "downloading Kafka $VIGIL_KAFKA_VERSION jars from Maven Central"
rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
fetch() {
  mvn -q -B -Dstyle.color=never -f "$VIGIL_ROOT/infra/kafka/pom.xml" -Dkafka.version="$VIGIL_KAFKA_VERSION" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$dest.tmp/libs"
}
retry 3 fetch || die "could not download Kafka $VIGIL_KAFKA_VERSION (org.apache.kafka:kafka_2.13) from Maven Central"
ls "$dest.tmp/libs/kafka_2.13-$VIGIL_KAFKA_VERSION.jar" >/dev/null || die "kafka_2.13-$VIGIL_KAFKA_VERSION.jar missing after download"
rm -rf "$dest" && mv "$dest.tmp" "$dest" && touch "$dest/.complete"
ok "kafka jars in $dest/libs ($(ls "$dest/libs" | wc -l) files)"
