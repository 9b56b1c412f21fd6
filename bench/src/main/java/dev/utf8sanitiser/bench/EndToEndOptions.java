package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/** The command-line options of {@link EndToEndBenchmark}, and what they resolve to. */
final class EndToEndOptions {
    @Option(
            names = "--quick",
            description =
                    "Small runs for a smoke test: ~1/25 of the records, one repeat, no warm-up, 4 s latency runs.")
    boolean quick;

    @Option(
            names = "--sizes",
            split = ",",
            paramLabel = "BYTES",
            defaultValue = "100,1024",
            description = "Record value sizes in bytes (default: ${DEFAULT-VALUE}).")
    List<Integer> sizes;

    @Option(
            names = "--records",
            split = ",",
            paramLabel = "N",
            description = "Records per throughput run, one per size or one for all (default: at most 2,000,000"
                    + " and about 800 MB of values per size: 2,000,000 at 100 B, 800,000 at 1 KiB; with --quick 20,000"
                    + " and 10,000).")
    List<Integer> records;

    @Option(
            names = "--repeats",
            description = "Throughput runs of each topology per size, interleaved (default: 7; with --quick 1).")
    Integer repeats;

    @Option(
            names = "--warmup-records",
            paramLabel = "N",
            description = "Records of an unmeasured warm-up run of each topology, at the first size (default: as"
                    + " many as a measured run of that size; with --quick 0).")
    Integer warmupRecords;

    @Option(
            names = "--partitions",
            defaultValue = "2",
            description = "Partitions of every topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
            names = "--dlq-partitions",
            paramLabel = "N",
            description = "Partitions of the dead-letter topics (default: as --partitions).")
    Integer dlqPartitions;

    /** Partitions of the dead-letter topics. */
    int dlqPartitions() {
        return dlqPartitions == null ? partitions : dlqPartitions;
    }

    @Option(
            names = "--with-processor-pass-through",
            description = "Also run a pass-through with one processor node between source and sink, which"
                    + " forwards every record: what the node costs without work of its own.")
    boolean withProcessorPassThrough;

    @Option(
            names = "--with-routed-pass-through",
            description = "Also run the branching pass-through's topology with a processor that sends every"
                    + " record to the output sink by name, without validating it: what routing costs.")
    boolean withRoutedPassThrough;

    @Option(
            names = "--with-streams-dlq",
            description = "Also run plain Kafka Streams with its own dead-letter queue: a strict String"
                    + " deserializer (the JDK's decoder, REPORT) and errors.dead.letter.queue.topic.name with"
                    + " LogAndContinueExceptionHandler.")
    boolean withStreamsDlq;

    @Option(
            names = "--ill-formed",
            paramLabel = "FRACTION",
            defaultValue = "0.01",
            description =
                    "Fraction of ill-formed records, which the sanitiser dead-letters (default: ${DEFAULT-VALUE}).")
    double illFormed;

    @Option(
            names = "--guarantee",
            defaultValue = SanitiserConfig.DEFAULT_PROCESSING_GUARANTEE,
            description = "processing.guarantee of both topologies (default: ${DEFAULT-VALUE}).")
    String guarantee;

    @Option(
            names = "--commit-interval-ms",
            defaultValue = "100",
            description = "commit.interval.ms of both topologies (default: ${DEFAULT-VALUE}, Kafka Streams'"
                    + " default under exactly-once).")
    long commitIntervalMs;

    @Option(
            names = "--property",
            paramLabel = "KEY=VALUE",
            description =
                    "A Kafka Streams property set for every topology, e.g. producer.batch.size=65536; repeatable.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(
            names = "--stream-threads",
            defaultValue = "1",
            description = "num.stream.threads of both topologies (default: ${DEFAULT-VALUE}).")
    int streamThreads;

    @Option(
            names = "--latency-rate",
            paramLabel = "RECORDS_PER_S",
            description = "Send rate of the latency runs (default: 5,000; with --quick 2,000).")
    Integer latencyRate;

    @Option(names = "--latency-seconds", description = "Length of each latency run (default: 20; with --quick 4).")
    Integer latencySeconds;

    @Option(
            names = "--latency-warmup-seconds",
            description = "Leading part of each latency run left out of the figures (default: 2; with --quick 1).")
    Integer latencyWarmupSeconds;

    @Option(
            names = "--seed",
            defaultValue = "20261123",
            description = "Seed of the record generator (default: ${DEFAULT-VALUE}).")
    long seed;

    /** The resolved options: --quick's defaults for what was not given. */
    record Settings(
            List<Integer> sizes,
            List<Integer> records,
            int repeats,
            int warmupRecords,
            int latencyRate,
            int latencySeconds,
            int latencyWarmupSeconds) {}

    /** The options with --quick's defaults for what was not given. */
    Settings settings() {
        if (sizes.isEmpty() || sizes.stream().anyMatch(size -> size < 1)) {
            throw new IllegalArgumentException("--sizes must be positive: " + sizes);
        }
        List<Integer> n;
        if (records == null) {
            n = sizes.stream()
                    .map(size -> quick ? Math.min(20_000, 10_240_000 / size) : Math.min(2_000_000, 819_200_000 / size))
                    .map(count -> Math.max(count, 1))
                    .collect(Collectors.toList());
        } else if (records.size() == 1) {
            n = sizes.stream().map(size -> records.get(0)).collect(Collectors.toList());
        } else if (records.size() == sizes.size()) {
            n = List.copyOf(records);
        } else {
            throw new IllegalArgumentException("--records needs one count, or one per size");
        }
        Settings settings = new Settings(
                List.copyOf(sizes),
                n,
                orDefault(repeats, quick ? 1 : 7),
                orDefault(warmupRecords, quick ? 0 : n.get(0)),
                orDefault(latencyRate, quick ? 2_000 : 5_000),
                orDefault(latencySeconds, quick ? 4 : 20),
                orDefault(latencyWarmupSeconds, quick ? 1 : 2));
        if (settings.latencyWarmupSeconds() >= settings.latencySeconds()) {
            throw new IllegalArgumentException("--latency-warmup-seconds must be less than --latency-seconds");
        }
        return settings;
    }

    private static int orDefault(Integer value, int otherwise) {
        return value == null ? otherwise : value;
    }
}
