package dev.utf8sanitiser.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What {@link EndToEndBenchmark} measures, and the statistics of its runs (medians, ranges, ratios). */
final class EndToEndResults {
    private EndToEndResults() {}

    /** One throughput run. */
    record Throughput(
            int records,
            long valueBytes,
            double seconds,
            double startupSeconds,
            int deadLettered,
            double appCpuSeconds,
            double brokerCpuSeconds,
            long producerBatches,
            Map<String, Double> appCpuSecondsByThread) {
        double recordsPerSecond() {
            return records / seconds;
        }

        /** CPU time of the benchmark JVM and the broker JVM together, per record. */
        double cpuMicrosPerRecord() {
            return appCpuMicrosPerRecord() + brokerCpuMicrosPerRecord();
        }

        /** CPU time of the benchmark JVM (application, counting consumer), per record. */
        double appCpuMicrosPerRecord() {
            return appCpuSeconds * 1e6 / records;
        }

        /**
         * The benchmark JVM's CPU time a record by kind of thread ({@link ThreadCpu}), as one line:
         * {@code stream 1.9, producer I/O 0.8, ...}.
         */
        String appCpuByThread() {
            StringBuilder line = new StringBuilder();
            appCpuSecondsByThread.forEach((kind, seconds) -> {
                line.append(line.length() == 0 ? "" : ", ")
                        .append(kind)
                        .append(' ')
                        .append(String.format(Locale.ROOT, "%.2f", seconds * 1e6 / records));
            });
            return line.toString();
        }

        /** CPU time of the broker JVM, per record. */
        double brokerCpuMicrosPerRecord() {
            return brokerCpuSeconds * 1e6 / records;
        }

        double megabytesPerSecond() {
            return valueBytes / seconds / 1e6;
        }
    }

    /** A throughput run as the report lists it. */
    record RunLine(int size, Topo topo, int repeat, Throughput result) {}

    /** Latencies of one paced run, in milliseconds. */
    record Latency(int count, double p50Ms, double p99Ms, double maxMs) {
        static Latency of(long[] nanos) {
            if (nanos.length == 0) {
                throw new IllegalStateException("no latency measured");
            }
            Arrays.sort(nanos);
            return new Latency(
                    nanos.length,
                    percentile(nanos, 0.50) / 1e6,
                    percentile(nanos, 0.99) / 1e6,
                    nanos[nanos.length - 1] / 1e6);
        }

        /** Nearest rank: the smallest value with at least {@code p} of the values at or below it. */
        private static long percentile(long[] sorted, double p) {
            int rank = (int) Math.ceil(p * sorted.length);
            return sorted[Math.max(0, rank - 1)];
        }
    }

    /**
     * One line of the table: a size and a topology, and the runs of every topology of the same
     * rounds, by topology, so that each of its runs can be divided by another's of the same round.
     */
    record Row(int size, int records, Topo topo, Map<Topo, List<Throughput>> rounds, Latency latency) {
        Row {
            rounds = Map.copyOf(rounds);
        }

        /** This topology's runs, in the order of the rounds. */
        List<Throughput> runs() {
            return rounds.get(topo);
        }

        double medianRecordsPerSecond() {
            return median(
                    runs().stream().mapToDouble(Throughput::recordsPerSecond).toArray());
        }

        double medianCpuMicrosPerRecord() {
            return median(
                    runs().stream().mapToDouble(Throughput::cpuMicrosPerRecord).toArray());
        }

        double medianMegabytesPerSecond() {
            return median(
                    runs().stream().mapToDouble(Throughput::megabytesPerSecond).toArray());
        }

        /**
         * The median of the rounds' ratios: each run against the pass-through run of the same
         * round, so drift in what else the machine does falls on both sides of each ratio.
         */
        double ratio() {
            return ratioTo(Topo.PASS_THROUGH);
        }

        /** Each run's ratio to the pass-through run of the same round. */
        double[] pairRatios() {
            return pairRatiosTo(Topo.PASS_THROUGH);
        }

        /** As {@link #ratio()}, against the branching pass-through. */
        double ratioToBranching() {
            return ratioTo(Topo.BRANCHING);
        }

        /** Whether {@code other} ran in these rounds. */
        boolean has(Topo other) {
            return rounds.containsKey(other);
        }

        /** As {@link #ratio()}, against {@code other}. */
        double ratioTo(Topo other) {
            return median(pairRatiosTo(other));
        }

        /** Each run's ratio to {@code other}'s run of the same round. */
        double[] pairRatiosTo(Topo other) {
            List<Throughput> theirs = rounds.get(other);
            if (theirs == null) {
                throw new IllegalArgumentException(other + " did not run");
            }
            List<Throughput> runs = runs();
            double[] ratios = new double[runs.size()];
            for (int i = 0; i < ratios.length; i++) {
                ratios[i] = runs.get(i).recordsPerSecond() / theirs.get(i).recordsPerSecond();
            }
            return ratios;
        }

        double min() {
            return runs().stream()
                    .mapToDouble(Throughput::recordsPerSecond)
                    .min()
                    .orElseThrow();
        }

        double max() {
            return runs().stream()
                    .mapToDouble(Throughput::recordsPerSecond)
                    .max()
                    .orElseThrow();
        }
    }

    /**
     * CPU time used so far by this JVM (the application, the loading producer, the counting
     * consumer) and by the broker's JVM, in nanoseconds. On a shared machine CPU time per record is
     * steadier than records per second, as other work slows the clock but not the count.
     */
    /** CPU times of the benchmark JVM and the broker's, and of this JVM's threads. */
    record Cpu(long app, long broker, ThreadCpu.Snapshot threads) {}

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
