package dev.utf8sanitiser.bench;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The Avro record decision against Avro's {@code GenericDatumReader}, as a ratio measured in
 * slices taken in turn: {@link AvroBenchmark}'s own records and methods, the two alternated every
 * slice of about 50 ms (ABBA, so that drift falls on both), after a long warm-up, and the ratio of
 * each pair of slices reported as a median with its spread.
 *
 * <p>Why not only JMH: on this machine kind, successive JMH iterations of one benchmark spread by
 * ±15-40%, so two benchmarks measured a minute apart give a ratio that moves by more than the
 * difference looked for. Slices next to each other see the same machine. JMH stays the reference
 * for absolute figures; this is for the ratio.
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -Dtestdata.dir=$(pwd)/testdata \
 *   -cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.AvroRatio [warm-up seconds] [pairs]
 * </pre>
 */
public final class AvroRatio {
    private static final String[] CORPORA = {"wikipedia_mars/french.utf8.txt", "wikipedia_mars/japanese.utf8.txt"};

    private AvroRatio() {}

    public static void main(String[] args) throws IOException {
        int warmupSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 101;
        Blackhole bh = new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        System.out.printf(
                Locale.ROOT,
                "%s %s, load average %s; %d s warm-up, %d pairs of slices%n",
                System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"),
                Machine.loadAverage(),
                warmupSeconds,
                pairs);
        for (String corpus : CORPORA) {
            AvroBenchmark bench = new AvroBenchmark();
            bench.corpus = corpus;
            bench.setUp();
            long until = System.nanoTime() + warmupSeconds * 1_000_000_000L;
            while (System.nanoTime() < until) {
                bench.genericDatumReader(bh);
                bench.recordSanitiser(bh);
            }
            int calls = callsForMillis(bench, bh, 50);
            double[] ratios = new double[pairs];
            double[] sanitiser = new double[pairs];
            double[] reader = new double[pairs];
            for (int i = 0; i < pairs; i++) {
                long readerNanos;
                long sanitiserNanos;
                if (i % 2 == 0) {
                    readerNanos = timeReader(bench, bh, calls);
                    sanitiserNanos = timeSanitiser(bench, bh, calls);
                } else {
                    sanitiserNanos = timeSanitiser(bench, bh, calls);
                    readerNanos = timeReader(bench, bh, calls);
                }
                ratios[i] = (double) readerNanos / sanitiserNanos;
                sanitiser[i] = recordsPerSecond(calls, sanitiserNanos);
                reader[i] = recordsPerSecond(calls, readerNanos);
            }
            Arrays.sort(ratios);
            Arrays.sort(sanitiser);
            Arrays.sort(reader);
            System.out.printf(
                    Locale.ROOT,
                    "%s: recordSanitiser / genericDatumReader median %.2fx (quartiles %.2f-%.2f, range %.2f-%.2f);"
                            + " records/s median %,.0f against %,.0f%n",
                    corpus,
                    median(ratios),
                    ratios[pairs / 4],
                    ratios[3 * pairs / 4],
                    ratios[0],
                    ratios[pairs - 1],
                    median(sanitiser),
                    median(reader));
        }
        System.out.printf(Locale.ROOT, "load average after: %s%n", Machine.loadAverage());
    }

    /** How many calls of the slower method (the reader) take about {@code millis}. */
    private static int callsForMillis(AvroBenchmark bench, Blackhole bh, int millis) throws IOException {
        long nanos = timeReader(bench, bh, 10);
        return (int) Math.max(1, millis * 1_000_000L * 10 / Math.max(1, nanos));
    }

    private static long timeReader(AvroBenchmark bench, Blackhole bh, int calls) throws IOException {
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            bench.genericDatumReader(bh);
        }
        return System.nanoTime() - start;
    }

    private static long timeSanitiser(AvroBenchmark bench, Blackhole bh, int calls) {
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            bench.recordSanitiser(bh);
        }
        return System.nanoTime() - start;
    }

    private static double recordsPerSecond(int calls, long nanos) {
        return calls * (double) AvroBenchmark.RECORDS * 1e9 / nanos;
    }

    private static double median(double[] sorted) {
        return sorted[sorted.length / 2];
    }
}
