#!/usr/bin/env bash
# The compose stack, run for real (docs/deploy.md): `docker-compose up` with locally built stand-ins
# for the public images (Kafka's own classes, the project's test registry, Debian's Prometheus) on
# the host network, records produced to both sanitisers, routed to their clean and dead-letter
# topics, scraped by Prometheus, then `docker-compose down -v`. Grafana's image cannot be built
# here, so the stack comes up without it (its provisioning is checked by docker-compose config).
# Installs what is missing; starts dockerd when none runs and stops it after.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# shellcheck source=deploy/test/lib.sh
source deploy/test/lib.sh

export SANITISER_IMAGE=utf8-sanitiser-test/sanitiser:test
export KAFKA_IMAGE=utf8-sanitiser-test/kafka:test
export SCHEMA_REGISTRY_IMAGE=utf8-sanitiser-test/registry:test
export PROMETHEUS_IMAGE=utf8-sanitiser-test/prometheus:test
export KAFKA_HOST=127.0.0.1 KAFKA_LISTEN_HOST=127.0.0.1 KAFKA_PORT=19192 KAFKA_CONTROLLER_PORT=19193
export REGISTRY_HOST=127.0.0.1 REGISTRY_LISTEN_HOST=127.0.0.1 REGISTRY_PORT=18182
export TEXT_HTTP_PORT=18180 AVRO_HTTP_PORT=18181
export PROMETHEUS_HOST=127.0.0.1 PROMETHEUS_PORT=19190 PROMETHEUS_CONFIG=prometheus.host.yml
bootstrap="$KAFKA_HOST:$KAFKA_PORT"
compose=(docker-compose -p utf8-sanitiser-test -f deploy/compose/docker-compose.yml -f deploy/compose/docker-compose.host.yml)

cleanup() {
  "${compose[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
  stop_docker
}
trap cleanup EXIT

need curl:curl docker-compose:docker-compose
start_docker
build_bases
started=$SECONDS

# The stack's file must be valid with the public defaults too (Grafana included).
(unset SANITISER_IMAGE KAFKA_IMAGE SCHEMA_REGISTRY_IMAGE PROMETHEUS_IMAGE; cd deploy/compose && docker-compose config -q)

# The images: the sanitiser's own (deploy/image), and the stand-ins (deploy/test/*/Dockerfile).
# REUSE_SANITISER_IMAGE=1 (as .ci/run sets it after image-test.sh) skips rebuilding it.
if [[ "${REUSE_SANITISER_IMAGE:-}" != 1 ]] || ! docker image inspect "$SANITISER_IMAGE" >/dev/null 2>&1; then
  deploy/image/build.sh --base "$JRE_IMAGE" --tag "$SANITISER_IMAGE" >/dev/null
fi
app_jar="$(ls app/target/utf8-sanitiser-app-*-app.jar 2>/dev/null | head -n 1 || true)"
if [[ -z "$app_jar" ]]; then
  ./mvnw -q -B -pl app -am package -DskipTests -Dfuzz.skip=true -Dspotless.check.skip=true
  app_jar="$(ls app/target/utf8-sanitiser-app-*-app.jar | head -n 1)"
fi
build_kafka_standin "$app_jar" "$KAFKA_IMAGE"
context="$(mktemp -d)"
cp deploy/test/registry/Dockerfile "$context/"
cp "$app_jar" "$context/utf8-sanitiser-app.jar"
docker build -q --network host --build-arg BASE_IMAGE="$JRE_IMAGE" -t "$SCHEMA_REGISTRY_IMAGE" "$context" >/dev/null
rm -rf "$context"
docker build -q --network host --build-arg BASE_IMAGE="$DEBIAN_IMAGE" -t "$PROMETHEUS_IMAGE" deploy/test/prometheus >/dev/null
echo "compose-test: images ready in $((SECONDS - started)) s"
client() { java -cp "$app_jar" deploy/test/Records.java "$@"; }

"${compose[@]}" up -d kafka kafka-init schema-registry sanitiser-text sanitiser-avro prometheus
await 120 curl -fsS "http://127.0.0.1:$TEXT_HTTP_PORT/health/ready" \
  || { "${compose[@]}" logs --tail=30 >&2; echo "compose-test: sanitiser-text not ready" >&2; exit 1; }
await 60 curl -fsS "http://127.0.0.1:$AVRO_HTTP_PORT/health/ready" \
  || { "${compose[@]}" logs --tail=30 >&2; echo "compose-test: sanitiser-avro not ready" >&2; exit 1; }

client produce "$bootstrap" orders 30 3
client produce-avro "$bootstrap" payments "http://$REGISTRY_HOST:$REGISTRY_PORT" 10 2
client count "$bootstrap" orders.clean 30 60
client count "$bootstrap" orders.dlq 3 60
client count "$bootstrap" payments.clean 10 60
client count "$bootstrap" payments.dlq 2 60

# Prometheus scraped both: the passed counts it holds are the records each sanitiser passed.
query="http://127.0.0.1:$PROMETHEUS_PORT/api/v1/query?query=sum%20by%20(topic)%20(kafka_stream_utf8_sanitiser_passed_total)"
scraped() {
  local body
  body="$(curl -fsS "$query")"
  grep -q '"topic":"orders"},"value":\[[0-9.]*,"30"\]' <<<"$body" && grep -q '"topic":"payments"},"value":\[[0-9.]*,"10"\]' <<<"$body"
}
await 60 scraped || { curl -sS "$query" >&2; echo; echo "compose-test: Prometheus did not scrape both sanitisers" >&2; exit 1; }
rules="$(curl -fsS "http://127.0.0.1:$PROMETHEUS_PORT/api/v1/rules")"
grep -q 'Utf8SanitiserDeadLetterRateHigh' <<<"$rules" || { echo "compose-test: the alert rules are not loaded" >&2; exit 1; }

"${compose[@]}" down -v --remove-orphans >/dev/null 2>&1
echo "compose-test: orders 30 clean + 3 dead letters, payments (Avro) 10 + 2, scraped by Prometheus with the alert rules, down -v ($((SECONDS - started)) s; Grafana not run: no image can be built here)"
