#!/usr/bin/env bash
# Builds the production image (docs/deploy.md): the -Pimage jar on a JRE base image.
#
#   deploy/image/build.sh [--base IMAGE] [--tag NAME:TAG]
#
# --base defaults to eclipse-temurin:17-jre; --tag to utf8-sanitiser:<project version>.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
base="eclipse-temurin:17-jre"
tag=""
while (($#)); do
  case "$1" in
    --base) base="$2"; shift 2 ;;
    --tag) tag="$2"; shift 2 ;;
    *) echo "usage: deploy/image/build.sh [--base IMAGE] [--tag NAME:TAG]" >&2; exit 2 ;;
  esac
done
cd "$root"
./mvnw -q -B -Pimage -pl app -am package -DskipTests -Dfuzz.skip=true -Dspotless.check.skip=true
jar="$(ls app/target/utf8-sanitiser-app-*-prod.jar | head -n 1)"
version="$(basename "$jar" | sed -E 's/^utf8-sanitiser-app-(.*)-prod\.jar$/\1/')"
tag="${tag:-utf8-sanitiser:$version}"
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
cp deploy/image/Dockerfile deploy/image/sanitiser.properties "$context/"
cp "$jar" "$context/utf8-sanitiser.jar"
docker build -q --network host \
  --build-arg BASE_IMAGE="$base" \
  --build-arg VERSION="$version" \
  --build-arg REVISION="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  -t "$tag" "$context" >/dev/null
echo "$tag"
