#!/usr/bin/env bash
# The native anchor of docs/benchmarks.md. Optional, and never part of the Java build or
# CI: a C++ SIMD validator timed over the same records as ValidationBenchmark, and the Java
# validators on the same corpora in the same run, then one Markdown table with the ratios.
#
# The native side is simdutf::validate_utf8 where pkg-config finds simdutf, otherwise
# simdjson::validate_utf8 from Debian's libsimdjson-dev (apt-get install libsimdjson-dev g++): both
# are Keiser and Lemire's lookup algorithm, and both pick their widest kernel at run time. It is
# timed before and after the Java run and the mean of the two medians is reported, with both, so a
# machine that changed under the run shows.
#
#   bench/native/run-native.sh [--java PATH] [--sizes 1024,0] [--corpora a,b,...] [--native-only]
#                              [--methods 'utf8Sanitiser|utf8SanitiserScalar|guavaIsWellFormed']
#
# Run it from anywhere after ./mvnw -B -pl bench -am package -DskipTests. Writes the table to
# standard output and everything to bench/target/native/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

java=java
sizes=1024,0
corpora=lipsum/Russian-Lipsum.utf8.txt,lipsum/Hindi-Lipsum.utf8.txt,lipsum/Japanese-Lipsum.utf8.txt,lipsum/Chinese-Lipsum.utf8.txt,lipsum/Latin-Lipsum.utf8.txt,wikipedia_mars/russian.utf8.txt,wikipedia_mars/english.utf8.txt
native_only=false
methods='utf8Sanitiser|utf8SanitiserScalar|guavaIsWellFormed'
while [[ $# -gt 0 ]]; do
  case "$1" in
    --java) java="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --corpora) corpora="$2"; shift 2 ;;
    --native-only) native_only=true; shift ;;
    --methods) methods="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "run-native.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done

out=bench/target/native
mkdir -p "$out"
testdata="$root/testdata"
IFS=, read -r -a corpus_list <<<"$corpora"
IFS=, read -r -a size_list <<<"$sizes"

if pkg-config --exists simdutf 2>/dev/null; then
  # shellcheck disable=SC2046
  g++ -O3 -std=c++17 -DUSE_SIMDUTF -o "$out/validate-utf8-native" bench/native/validate_utf8_native.cpp \
    $(pkg-config --cflags --libs simdutf)
elif [[ -f /usr/include/simdjson.h ]]; then
  g++ -O3 -std=c++17 -o "$out/validate-utf8-native" bench/native/validate_utf8_native.cpp -lsimdjson
else
  echo "run-native.sh: neither simdutf (pkg-config) nor simdjson (/usr/include/simdjson.h) is installed;" \
    "on Debian: apt-get install libsimdjson-dev g++" >&2
  exit 2
fi

native_round() {  # $1: the file to write
  : >"$1"
  for size in "${size_list[@]}"; do
    (cd "$testdata/corpora" && "$root/$out/validate-utf8-native" "$size" 1 5 "${corpus_list[@]}") \
      >>"$1" 2>"$out/implementation.txt"
  done
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
native_round "$out/native-before.tsv"
if [[ $native_only == false ]]; then
  "$java" -Dtestdata.dir="$testdata" -jar bench/target/benchmarks.jar \
    "ValidationBenchmark.($methods)\$" \
    -f 1 -wi 2 -w 1s -i 3 -r 1s -p size="$sizes" -p corpus="$corpora" \
    -jvmArgsPrepend "-Dtestdata.dir=$testdata" -rf csv -rff "$out/java.csv" >"$out/java.log"
  native_round "$out/native-after.tsv"
else
  cp "$out/native-before.tsv" "$out/native-after.tsv"
fi
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

echo "Native: $(cat "$out/implementation.txt"); Java: $("$java" -XshowSettings:properties -version 2>&1 \
  | sed -n 's/^ *java.runtime.version = //p'); load average $load_before before, $load_after after."
echo
echo "| corpus | record | native GB/s (before, after) | vector GB/s | scalar GB/s | Guava GB/s | vector/native | scalar/Guava |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
# Joins the native medians with JMH's operations per second, each operation being one pass over
# the whole corpus file, so GB/s = ops/s * file length.
awk -F'\t' -v csv="$out/java.csv" -v data="$testdata/corpora" -v native_only="$native_only" '
  FILENAME == ARGV[1] { before[$1 "|" $2] = $3; next }
  FILENAME == ARGV[2] { after[$1 "|" $2] = $3; order[++n] = $1 "|" $2; next }
  END {
    if (native_only == "false") {
      while ((getline line < csv) > 0) {
        gsub(/"|\r/, "", line); split(line, f, ",")
        if (f[1] == "Benchmark") continue
        sub(/.*\./, "", f[1]); ops[f[8] "|" f[9] "|" f[1]] = f[5]
      }
    }
    for (i = 1; i <= n; i++) {
      key = order[i]; split(key, k, "|")
      cmd = "stat -c %s \"" data "/" k[1] "\""; cmd | getline bytes; close(cmd)
      native = (before[key] + after[key]) / 2
      v = ops[key "|utf8Sanitiser"] * bytes / 1e9
      s = ops[key "|utf8SanitiserScalar"] * bytes / 1e9
      g = ops[key "|guavaIsWellFormed"] * bytes / 1e9
      printf "| %s | %s | %.2f (%.2f, %.2f) | %s | %s | %s | %s | %s |\n", k[1],
        (k[2] == 0 ? "whole" : k[2] " B"), native, before[key], after[key], gbps(v), gbps(s), gbps(g),
        (v > 0 ? sprintf("%.3f", v / native) : "-"), (g > 0 && s > 0 ? sprintf("%.2fx", s / g) : "-")
    }
  }
  # A method left out by --methods (or --native-only) shows as "-", not as 0.
  function gbps(x) { return x > 0 ? sprintf("%.2f", x) : "-" }' "$out/native-before.tsv" "$out/native-after.tsv" | tee "$out/report.md"
