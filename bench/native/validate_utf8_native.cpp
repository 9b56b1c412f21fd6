// The native anchor of docs/benchmarks.md: how fast a C++ SIMD validator checks the same records
// ValidationBenchmark gives the Java validators. simdjson::validate_utf8 (Debian's libsimdjson-dev)
// is Keiser and Lemire's lookup algorithm, the one simdutf uses; built with -DUSE_SIMDUTF it times
// simdutf::validate_utf8 instead, where a user has simdutf installed.
//
// Usage: validate-utf8-native SIZE SECONDS ROUNDS FILE...
// For each file: the records cut as bench's Corpus.records does (SIZE bytes on character
// boundaries, 0 for the whole file), one warm-up round, then ROUNDS rounds of about SECONDS each.
// Prints one line per file: path, size, median, lowest and highest GB/s, and whether every record
// was valid (so a wrong answer shows).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#ifdef USE_SIMDUTF
#include <simdutf.h>
static bool validate(const char *data, size_t length) { return simdutf::validate_utf8(data, length); }
static std::string implementation() { return "simdutf " + simdutf::get_active_implementation()->name(); }
#else
#include <simdjson.h>
static bool validate(const char *data, size_t length) { return simdjson::validate_utf8(data, length); }
static std::string implementation() {
  return std::string("simdjson ") + simdjson::get_active_implementation()->name();
}
#endif

using Record = std::pair<size_t, size_t>;  // offset, length

static size_t boundary_at_or_before(const std::string &bytes, size_t end) {
  size_t i = std::min(end, bytes.size());
  for (int back = 0; back < 3 && i < bytes.size() && i > 0 && (bytes[i] & 0xC0) == 0x80; back++) {
    i--;
  }
  return i;
}

static std::vector<Record> records(const std::string &bytes, size_t size) {
  std::vector<Record> out;
  if (size == 0) {
    out.emplace_back(0, bytes.size());
    return out;
  }
  for (size_t at = 0; at < bytes.size();) {
    size_t end = boundary_at_or_before(bytes, at + size);
    if (end <= at) end = std::min(bytes.size(), at + size);
    out.emplace_back(at, end - at);
    at = end;
  }
  return out;
}

// One round: whole passes over the records until `seconds` have gone; GB/s of input.
static double round_gbps(const std::string &bytes, const std::vector<Record> &recs, double seconds,
                         bool &all_valid) {
  using clock = std::chrono::steady_clock;
  auto start = clock::now();
  double elapsed = 0;
  long passes = 0;
  bool valid = true;
  do {
    for (const Record &r : recs) valid &= validate(bytes.data() + r.first, r.second);
    passes++;
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
  } while (elapsed < seconds);
  all_valid = valid;
  return static_cast<double>(bytes.size()) * passes / elapsed / 1e9;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s SIZE SECONDS ROUNDS FILE...\n", argv[0]);
    return 2;
  }
  size_t size = std::strtoul(argv[1], nullptr, 10);
  double seconds = std::strtod(argv[2], nullptr);
  int rounds = std::atoi(argv[3]);
  for (int f = 4; f < argc; f++) {
    std::ifstream in(argv[f], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", argv[f]);
      return 2;
    }
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<Record> recs = records(bytes, size);
    bool valid = true;
    round_gbps(bytes, recs, seconds, valid);  // warm-up
    std::vector<double> gbps;
    for (int r = 0; r < rounds; r++) gbps.push_back(round_gbps(bytes, recs, seconds, valid));
    std::sort(gbps.begin(), gbps.end());
    std::printf("%s\t%zu\t%.2f\t%.2f\t%.2f\t%s\n", argv[f], size, gbps[gbps.size() / 2], gbps.front(),
                gbps.back(), valid ? "valid" : "invalid");
  }
  std::fprintf(stderr, "%s\n", implementation().c_str());
  return 0;
}
