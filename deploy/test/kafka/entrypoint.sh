#!/usr/bin/env bash
# apache/kafka's convention: every KAFKA_X_Y variable is the broker property x.y; CLUSTER_ID names
# the cluster. Formats the log directory on first start (KRaft), then runs the broker.
set -euo pipefail
props=/tmp/server.properties
: >"$props"
while IFS='=' read -r name value; do
  [[ "$name" == KAFKA_* && "$name" != KAFKA_HEAP_OPTS && "$name" != KAFKA_OPTS ]] || continue
  key="${name#KAFKA_}"
  key="${key,,}"
  echo "${key//_/.}=$value" >>"$props"
done < <(env)
grep -q '^log.dirs=' "$props" || echo "log.dirs=/tmp/kraft-logs" >>"$props"
logdir="$(sed -n 's/^log.dirs=//p' "$props")"
cp="/opt/kafka/kafka.jar"
if [[ ! -f "$logdir/meta.properties" ]]; then
  java -cp "$cp" kafka.tools.StorageTool format --config "$props" --cluster-id "${CLUSTER_ID:?set CLUSTER_ID}" --ignore-formatted
fi
exec java ${KAFKA_HEAP_OPTS:--Xmx512m} ${KAFKA_OPTS:-} -cp "$cp" kafka.Kafka "$props"
