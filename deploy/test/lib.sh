# shellcheck shell=bash
# Shared by the deploy tests (image-test.sh, compose-test.sh): a Docker engine, and the locally built
# stand-ins for the public base images, which cannot be pulled on a machine without a registry.
# Sourced, not run.

# Installs the Debian packages named when their commands are missing (as root, on Debian).
need() {
  local missing=()
  local pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
  done
  if ((${#missing[@]})); then
    echo "deploy-test: installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  fi
}

# Starts dockerd when no engine answers; stop_docker stops only the one started here.
started_dockerd=""
start_docker() {
  # dockerd, not docker: a machine may have the client alone (this kind has one in /usr/local/bin).
  need dockerd:docker.io
  if docker info >/dev/null 2>&1; then
    return
  fi
  echo "deploy-test: starting dockerd"
  dockerd >/tmp/deploy-test-dockerd.log 2>&1 &
  started_dockerd=$!
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && return
    sleep 0.5
  done
  echo "deploy-test: dockerd did not start; see /tmp/deploy-test-dockerd.log" >&2
  return 1
}

stop_docker() {
  if [[ -n "$started_dockerd" ]]; then
    echo "deploy-test: stopping the dockerd started here"
    kill "$started_dockerd" 2>/dev/null || true
    wait "$started_dockerd" 2>/dev/null || true
    started_dockerd=""
  fi
}

# The Debian mirror apt already uses (first URIs: of debian.sources, or the first deb line).
debian_mirror() {
  local mirror=""
  if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
    mirror="$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)"
  fi
  if [[ -z "$mirror" && -f /etc/apt/sources.list ]]; then
    mirror="$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list)"
  fi
  echo "${mirror:?no Debian mirror in apt sources}"
}

# A Debian bookworm image from debootstrap, then a JRE 17 on it: the stand-in for the public
# eclipse-temurin:17-jre. Built once per Docker engine.
DEBIAN_IMAGE=utf8-sanitiser-test/debian:bookworm
JRE_IMAGE=utf8-sanitiser-test/jre:17
build_bases() {
  if ! docker image inspect "$DEBIAN_IMAGE" >/dev/null 2>&1; then
    need debootstrap:debootstrap
    local rootfs
    rootfs="$(mktemp -d)"
    echo "deploy-test: debootstrap bookworm (minbase) into $rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" "$(debian_mirror)" >/tmp/deploy-test-debootstrap.log 2>&1 \
      || { echo "deploy-test: debootstrap failed; see /tmp/deploy-test-debootstrap.log" >&2; return 1; }
    # The mirror may be a dated snapshot whose Release files are past their Valid-Until.
    echo 'Acquire::Check-Valid-Until "false";' >"$rootfs/etc/apt/apt.conf.d/99snapshot"
    tar -C "$rootfs" -c . | docker import - "$DEBIAN_IMAGE" >/dev/null
    rm -rf "$rootfs"
  fi
  if ! docker image inspect "$JRE_IMAGE" >/dev/null 2>&1; then
    echo "deploy-test: building $JRE_IMAGE"
    docker build -q --network host -t "$JRE_IMAGE" - >/dev/null <<DOCKERFILE
FROM $DEBIAN_IMAGE
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      openjdk-17-jre-headless && rm -rf /var/lib/apt/lists/*
DOCKERFILE
  fi
}

# Waits until "$@" succeeds, up to $1 seconds.
await() {
  local seconds=$1
  shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 1
  done
}

# The apache/kafka stand-in (kafka/Dockerfile): Kafka's own classes from the application jar $1, with
# the topic creation of kafka-topics.sh compiled against them; tagged $2.
build_kafka_standin() {
  local app_jar=$1 tag=$2 context
  context="$(mktemp -d)"
  cp deploy/test/kafka/Dockerfile deploy/test/kafka/entrypoint.sh deploy/test/kafka/kafka-topics.sh "$context/"
  cp "$app_jar" "$context/utf8-sanitiser-app.jar"
  mkdir "$context/classes"
  javac -cp "$app_jar" -d "$context/classes" deploy/test/kafka/Topics.java
  jar cf "$context/topics.jar" -C "$context/classes" .
  docker build -q --network host --build-arg BASE_IMAGE="$JRE_IMAGE" -t "$tag" "$context" >/dev/null
  rm -rf "$context"
}
