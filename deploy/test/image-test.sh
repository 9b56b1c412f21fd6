#!/usr/bin/env bash
# The production image, run for real (docs/deploy.md): builds the local base images and the image,
# runs a broker container and the sanitiser's container with --network host, sends well-formed and
# ill-formed records, and checks from outside the containers the clean and dead-letter topics, the
# health endpoints, /metrics and Docker's health status, and that SIGTERM stops it with exit 0.
# Installs docker.io and debootstrap when missing; starts dockerd when none runs and stops it after.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# shellcheck source=deploy/test/lib.sh
source deploy/test/lib.sh

kafka_port=19092
controller_port=19093
http_port=18080
bootstrap="127.0.0.1:$kafka_port"
image=utf8-sanitiser-test/sanitiser:test
kafka_image=utf8-sanitiser-test/kafka:test
containers=(utf8-sanitiser-test-sanitiser utf8-sanitiser-test-kafka)

cleanup() {
  docker rm -f "${containers[@]}" >/dev/null 2>&1 || true
  stop_docker
}
trap cleanup EXIT

need curl:curl
start_docker
docker rm -f "${containers[@]}" >/dev/null 2>&1 || true
build_bases

started=$SECONDS
deploy/image/build.sh --base "$JRE_IMAGE" --tag "$image" >/dev/null
echo "image-test: built $image in $((SECONDS - started)) s: $(docker image inspect -f '{{.Size}}' "$image" | numfmt --to=iec) (base $(docker image inspect -f '{{.Size}}' "$JRE_IMAGE" | numfmt --to=iec))"
app_jar="$(ls app/target/utf8-sanitiser-app-*-app.jar | head -n 1)"
client() { java -cp "$app_jar" deploy/test/Records.java "$@"; }

# The broker: the apache/kafka stand-in (Kafka's own classes on the same base).
build_kafka_standin "$app_jar" "$kafka_image"
docker run -d --name utf8-sanitiser-test-kafka --network host \
  -e CLUSTER_ID=dXRmOC1zYW5pdGlzZXI \
  -e KAFKA_NODE_ID=1 -e KAFKA_PROCESS_ROLES=broker,controller \
  -e KAFKA_LISTENERS="PLAINTEXT://127.0.0.1:$kafka_port,CONTROLLER://127.0.0.1:$controller_port" \
  -e KAFKA_ADVERTISED_LISTENERS="PLAINTEXT://127.0.0.1:$kafka_port" \
  -e KAFKA_CONTROLLER_LISTENER_NAMES=CONTROLLER \
  -e KAFKA_LISTENER_SECURITY_PROTOCOL_MAP=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT \
  -e KAFKA_CONTROLLER_QUORUM_VOTERS="1@127.0.0.1:$controller_port" \
  -e KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR=1 -e KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR=1 \
  -e KAFKA_TRANSACTION_STATE_LOG_MIN_ISR=1 -e KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS=0 \
  "$kafka_image" >/dev/null
await 90 client create "$bootstrap" orders \
  || { docker logs utf8-sanitiser-test-kafka | tail -20 >&2; echo "image-test: the broker did not start" >&2; exit 1; }

# The sanitiser's image, configured from the environment only.
docker run -d --name utf8-sanitiser-test-sanitiser --network host \
  -e KAFKA_BOOTSTRAP_SERVERS="$bootstrap" -e KAFKA_REPLICATION_FACTOR=1 \
  -e SANITISER_INPUT_TOPICS=orders -e SANITISER_HTTP_PORT="$http_port" \
  "$image" >/dev/null
await 90 curl -fsS "http://127.0.0.1:$http_port/health/ready" \
  || { docker logs utf8-sanitiser-test-sanitiser | tail -30 >&2; echo "image-test: not ready" >&2; exit 1; }

client produce "$bootstrap" orders 20 5
client count "$bootstrap" orders.clean 20 60
client count "$bootstrap" orders.dlq 5 60

curl -fsS "http://127.0.0.1:$http_port/health/live" >/dev/null
# The counts reach the metrics within a second of the records (docs/operations.md).
counted() {
  local metrics
  metrics="$(curl -fsS "http://127.0.0.1:$http_port/metrics")"
  grep -Eq '^kafka_stream_utf8_sanitiser_passed_total\{.*\} 20\.0$' <<<"$metrics" \
    && grep -Eq '^kafka_stream_utf8_sanitiser_dead_lettered_total\{.*rule="NON_SHORTEST_FORM".*\} 5\.0$' <<<"$metrics"
}
await 10 counted \
  || { curl -fsS "http://127.0.0.1:$http_port/metrics" | grep kafka_stream_utf8_sanitiser | head -20 >&2
       echo "image-test: /metrics does not count 20 passed and 5 dead letters" >&2; exit 1; }
await 60 bash -c "[[ \$(docker inspect -f '{{.State.Health.Status}}' utf8-sanitiser-test-sanitiser) == healthy ]]" \
  || { docker inspect -f '{{json .State.Health}}' utf8-sanitiser-test-sanitiser >&2; echo "image-test: Docker's HEALTHCHECK never said healthy" >&2; exit 1; }
[[ "$(docker inspect -f '{{.Config.User}}' "$image")" == 10001:10001 ]] || { echo "image-test: runs as root" >&2; exit 1; }
label() { docker inspect -f "{{index .Config.Labels \"org.opencontainers.image.$1\"}}" "$image"; }
[[ "$(label base.name)" == "$JRE_IMAGE" && "$(label licenses)" == Apache-2.0 && -n "$(label version)" \
   && "$(label revision)" == "$(git rev-parse --short HEAD)" ]] \
  || { docker inspect -f '{{json .Config.Labels}}' "$image" >&2; echo "image-test: OCI labels wrong" >&2; exit 1; }

docker stop -t 60 utf8-sanitiser-test-sanitiser >/dev/null
exit_code="$(docker inspect -f '{{.State.ExitCode}}' utf8-sanitiser-test-sanitiser)"
[[ "$exit_code" == 0 ]] || { docker logs utf8-sanitiser-test-sanitiser | tail -20 >&2; echo "image-test: SIGTERM gave exit $exit_code" >&2; exit 1; }
echo "image-test: 20 clean, 5 dead-lettered, healthy, metrics, SIGTERM exit 0 ($((SECONDS - started)) s)"
