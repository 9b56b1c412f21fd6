#!/usr/bin/env bash
# The validation benchmark of docs/benchmarks.md: every corpus at 1 KiB records and whole, and
# 100 B records for the generated corpora and four real ones. About 15 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jar=bench/target/benchmarks.jar
testdata="$(pwd)/testdata"
# -jvmArgsPrepend, not -jvmArgsAppend: the latter replaces the benchmarks' own -Xms1g -Xmx1g.
common=(-f 1 -wi 2 -w 500ms -i 3 -r 500ms -prof gc -jvmArgsPrepend "-Dtestdata.dir=$testdata")
java -Dtestdata.dir="$testdata" -jar "$jar" ValidationBenchmark "${common[@]}" -p size=1024,0 \
  -rf json -rff bench/results/validation-1k-whole.json
java -Dtestdata.dir="$testdata" -jar "$jar" ValidationBenchmark "${common[@]}" -p size=100 \
  -p corpus=gen/ascii,gen/mixed,gen/mixed-bad,lipsum/Latin-Lipsum.utf8.txt,lipsum/Chinese-Lipsum.utf8.txt,wikipedia_mars/russian.utf8.txt,wikipedia_mars/french.latin1.txt \
  -rf json -rff bench/results/validation-100.json
