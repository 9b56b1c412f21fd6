package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.bench.EndToEndOptions.Settings;
import dev.utf8sanitiser.bench.EndToEndResults.Row;
import dev.utf8sanitiser.bench.EndToEndResults.RunLine;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The Markdown {@link EndToEndBenchmark} writes to standard output: the settings, the machine, the tables. */
final class EndToEndReport {
    private final EndToEndOptions options;
    private final Settings settings;
    private final List<Row> rows;
    private final List<RunLine> runs;
    private final String command;
    private final String machine;
    private final Load load;
    private final double minutes;

    EndToEndReport(
            EndToEndOptions options,
            Settings settings,
            List<Row> rows,
            List<RunLine> runs,
            String command,
            String machine,
            Load load,
            double minutes) {
        this.options = options;
        this.settings = settings;
        this.rows = List.copyOf(rows);
        this.runs = List.copyOf(runs);
        this.command = command;
        this.machine = machine;
        this.load = load;
        this.minutes = minutes;
    }

    /**
     * How busy the machine was: the one-minute load average before and after, and the CPU seconds
     * other processes took during the run.
     */
    record Load(String before, String after, double otherCpuSeconds) {}

    /** Other processes' share of one CPU above which the report says the machine was loaded. */
    static final double LOADED_SHARE = 0.10;

    List<Row> rows() {
        return rows;
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("```sh\n")
                .append("./mvnw -B -pl bench -am package -DskipTests\n")
                .append(command)
                .append("\n```\n\n");
        if (options.quick) {
            md.append("Quick mode, a smoke test: one short run each on a cold JVM; the figures say that it"
                    + " works, not how fast.\n\n");
        }
        md.append("- Machine: ").append(machine).append('\n');
        md.append(String.format(
                Locale.ROOT,
                "- Load average (1 min): %s before, %s after; the whole run took %.1f min.%n",
                load.before(),
                load.after(),
                minutes));
        double share = minutes > 0 ? load.otherCpuSeconds() / (minutes * 60) : 0;
        md.append(String.format(
                Locale.ROOT,
                "- Other work on the machine: %.1f CPU seconds besides the benchmark's and the broker's"
                        + " JVMs, %.0f%% of one CPU over the run%s%n",
                load.otherCpuSeconds(),
                100 * share,
                share > LOADED_SHARE
                        ? ". **The machine was loaded:** each round ran under about the same load, so"
                                + " the ratios compare; the records/s of other runs do not."
                        : "."));
        md.append(String.format(
                Locale.ROOT,
                "- Every topology: processing.guarantee=%s, commit.interval.ms=%d, %d partitions (%d for"
                        + " the DLQ topics),"
                        + " num.stream.threads=%d, byte[] serdes; %s of the records ill-formed (the"
                        + " sanitiser, strict, dead-letters them; the branching pass-through sends them"
                        + " to the DLQ topic as they are; the pass-through copies them)%s.%n",
                options.guarantee,
                options.commitIntervalMs,
                options.partitions,
                options.dlqPartitions(),
                options.streamThreads,
                percent(options.illFormed),
                options.properties.isEmpty() ? "" : "; also " + options.properties));
        if (options.withStreamsDlq) {
            md.append("- Kafka Streams DLQ: the values read by a strict String deserializer (the JDK's UTF-8"
                    + " decoder, REPORT, a SerializationException on ill-formed input) and written by"
                    + " StringSerializer; errors.dead.letter.queue.topic.name set to the run's DLQ topic with"
                    + " LogAndContinueExceptionHandler; its two WARNs a record (the handler's and"
                    + " RecordDeserializer's) are left at ERROR, as the sanitiser logs its dead letters at DEBUG.\n");
        }
        md.append(String.format(
                Locale.ROOT,
                "- Throughput: %s records pre-loaded, read from the start by a fresh application;"
                        + " from Kafka Streams RUNNING to the last record visible read_committed in the"
                        + " output and DLQ topics; median of %d run(s), range in brackets, the"
                        + " topologies interleaved, each round starting one further on%s; a ratio is the median of the runs' ratios to the"
                        + " pass-through (or the branching pass-through) run of the same round. The"
                        + " branching pass-through sends the ill-formed records to the DLQ topic as they"
                        + " are: what a second topic costs. MB/s: record values only, 10^6 bytes. CPU"
                        + " µs/record: CPU time of the benchmark JVM (application, counting consumer) and"
                        + " the broker JVM over the same interval, per record.%n",
                settings.records().stream().map(EndToEndReport::grouped).collect(Collectors.joining(" / ")),
                settings.repeats(),
                settings.warmupRecords() > 0
                        ? ", after an unmeasured warm-up run of each (" + grouped(settings.warmupRecords())
                                + " records)"
                        : ""));
        md.append(String.format(
                Locale.ROOT,
                "- Latency: a separate run of each, %s records/s for %d s (the first %d s left out),"
                        + " send time in a header, received read_committed; one run each.%n%n",
                grouped(settings.latencyRate()),
                settings.latencySeconds(),
                settings.latencyWarmupSeconds()));
        boolean streamsDlq = options.withStreamsDlq;
        md.append("| record size | topology | records/s | MB/s | CPU µs/record | p50 ms | p99 ms | max ms"
                + " | ratio vs pass-through | ratio vs branching pass-through |"
                + (streamsDlq ? " ratio vs Kafka Streams DLQ |" : "")
                + "\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|" + (streamsDlq ? "---:|" : "") + "\n");
        for (Row row : rows) {
            String spread = row.runs().size() > 1 ? " (" + grouped(row.min()) + "–" + grouped(row.max()) + ")" : "";
            String ratio = row.topo() == Topo.PASS_THROUGH ? "1" : ratio(row.ratio(), row.pairRatios());
            String toBranching = ratioTo(row, Topo.BRANCHING, row.topo() != Topo.PASS_THROUGH);
            String toStreamsDlq = streamsDlq ? ratioTo(row, Topo.STREAMS_DLQ, row.topo() == Topo.SANITISER) + " |" : "";
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s%s | %.1f | %.1f | %.0f | %.0f | %.0f | %s | %s |%s%n",
                    sizeLabel(row.size()),
                    row.topo().label,
                    grouped(row.medianRecordsPerSecond()),
                    spread,
                    row.medianMegabytesPerSecond(),
                    row.medianCpuMicrosPerRecord(),
                    row.latency().p50Ms(),
                    row.latency().p99Ms(),
                    row.latency().maxMs(),
                    ratio,
                    toBranching,
                    toStreamsDlq.isEmpty() ? "" : " " + toStreamsDlq));
        }
        md.append("\nEach throughput run, in the order run:\n\n");
        md.append("| record size | topology | run | records/s | processing s | start-up s | app CPU s"
                + " | broker CPU s | to DLQ | batches sent |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (RunLine run : runs) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %d | %s | %.2f | %.2f | %.2f | %.2f | %,d | %,d |%n",
                    sizeLabel(run.size()),
                    run.topo().label,
                    run.repeat(),
                    grouped(run.result().recordsPerSecond()),
                    run.result().seconds(),
                    run.result().startupSeconds(),
                    run.result().appCpuSeconds(),
                    run.result().brokerCpuSeconds(),
                    run.result().deadLettered(),
                    run.result().producerBatches()));
        }
        return md.toString();
    }

    /** "1" on {@code other}'s own row, its ratio to {@code other} where {@code shown}, else blank. */
    private static String ratioTo(Row row, Topo other, boolean shown) {
        if (row.topo() == other) {
            return "1";
        }
        return shown && row.has(other) ? ratio(row.ratioTo(other), row.pairRatiosTo(other)) : "";
    }

    /** The median ratio in bold, then each round's when there are several. */
    private static String ratio(double median, double[] rounds) {
        String ratio = String.format(Locale.ROOT, "**%.2f**", median);
        if (rounds.length > 1) {
            ratio += Arrays.stream(rounds)
                    .mapToObj(r -> String.format(Locale.ROOT, "%.2f", r))
                    .collect(Collectors.joining(", ", " (runs: ", ")"));
        }
        return ratio;
    }

    static String sizeLabel(int size) {
        return size % 1024 == 0 ? size / 1024 + " KiB" : size + " B";
    }

    static String grouped(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String percent(double fraction) {
        return String.format(
                Locale.ROOT,
                "%s%%",
                new BigDecimal(fraction * 100).stripTrailingZeros().toPlainString());
    }
}
