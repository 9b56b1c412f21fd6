package dev.utf8sanitiser.bench;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Two methods of a record benchmark ({@link AvroBenchmark}, {@link ProtobufBenchmark}: a public
 * {@code corpus} field, a public {@code setUp()}, each method going over the benchmark's records
 * once) as a ratio measured in slices taken in turn: the benchmark's own records and methods, the
 * two alternated every slice of about 50 ms (ABBA, so that drift falls on both), after a long
 * warm-up, and the ratio of each pair of slices reported as a median with its spread.
 *
 * <p>Why not only JMH: on this machine kind, successive JMH iterations of one benchmark spread by
 * 15-40%, so two benchmarks measured a minute apart give a ratio that moves by more than the
 * difference looked for. Slices next to each other see the same machine. JMH stays the reference
 * for absolute figures; this is for the ratio. {@link AvroRatio} and {@link ProtobufRatio} are the
 * entry points.
 */
final class SliceRatio {
    private static final String[] CORPORA = {"wikipedia_mars/french.utf8.txt", "wikipedia_mars/japanese.utf8.txt"};

    private final Class<?> benchmarkClass;
    private final int records;

    SliceRatio(Class<?> benchmarkClass, int records) {
        this.benchmarkClass = benchmarkClass;
        this.records = records;
    }

    /** {@code [warm-up seconds, 20] [pairs, 101] [method] [baseline method]}. */
    void run(String[] args, String defaultMeasured, String defaultBaseline) throws ReflectiveOperationException {
        int warmupSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 101;
        Method measured = benchmark(args.length > 2 ? args[2] : defaultMeasured);
        Method baseline = benchmark(args.length > 3 ? args[3] : defaultBaseline);
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
            Object bench = benchmarkClass.getDeclaredConstructor().newInstance();
            benchmarkClass.getField("corpus").set(bench, corpus);
            benchmarkClass.getMethod("setUp").invoke(bench);
            long until = System.nanoTime() + warmupSeconds * 1_000_000_000L;
            while (System.nanoTime() < until) {
                measured.invoke(bench, bh);
                baseline.invoke(bench, bh);
            }
            int calls = callsForMillis(bench, baseline, bh, 50);
            double[] ratios = new double[pairs];
            double[] measuredRate = new double[pairs];
            double[] baselineRate = new double[pairs];
            for (int i = 0; i < pairs; i++) {
                long baselineNanos;
                long measuredNanos;
                if (i % 2 == 0) {
                    baselineNanos = time(bench, baseline, bh, calls);
                    measuredNanos = time(bench, measured, bh, calls);
                } else {
                    measuredNanos = time(bench, measured, bh, calls);
                    baselineNanos = time(bench, baseline, bh, calls);
                }
                ratios[i] = (double) baselineNanos / measuredNanos;
                measuredRate[i] = recordsPerSecond(calls, measuredNanos);
                baselineRate[i] = recordsPerSecond(calls, baselineNanos);
            }
            Arrays.sort(ratios);
            Arrays.sort(measuredRate);
            Arrays.sort(baselineRate);
            System.out.printf(
                    Locale.ROOT,
                    "%s: %s / %s median %.2fx (quartiles %.2f-%.2f, range %.2f-%.2f);"
                            + " records/s median %,.0f against %,.0f%n",
                    corpus,
                    measured.getName(),
                    baseline.getName(),
                    median(ratios),
                    ratios[pairs / 4],
                    ratios[3 * pairs / 4],
                    ratios[0],
                    ratios[pairs - 1],
                    median(measuredRate),
                    median(baselineRate));
        }
        System.out.printf(Locale.ROOT, "load average after: %s%n", Machine.loadAverage());
    }

    /** The {@link Benchmark} method of the benchmark class called {@code name}. */
    private Method benchmark(String name) {
        for (Method method : benchmarkClass.getMethods()) {
            if (method.getName().equals(name) && method.isAnnotationPresent(Benchmark.class)) {
                return method;
            }
        }
        String known = Arrays.stream(benchmarkClass.getMethods())
                .filter(m -> m.isAnnotationPresent(Benchmark.class))
                .map(Method::getName)
                .sorted()
                .collect(Collectors.joining(", "));
        System.err.printf("no benchmark %s in %s; one of: %s%n", name, benchmarkClass.getSimpleName(), known);
        System.exit(2);
        throw new AssertionError();
    }

    /** How many calls of {@code method} take about {@code millis}. */
    private static int callsForMillis(Object bench, Method method, Blackhole bh, int millis)
            throws ReflectiveOperationException {
        long nanos = time(bench, method, bh, 10);
        return (int) Math.max(1, millis * 1_000_000L * 10 / Math.max(1, nanos));
    }

    /** Each call goes over all the benchmark's records, so the reflective call's cost is lost in it. */
    private static long time(Object bench, Method method, Blackhole bh, int calls)
            throws IllegalAccessException, InvocationTargetException {
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            method.invoke(bench, bh);
        }
        return System.nanoTime() - start;
    }

    private double recordsPerSecond(int calls, long nanos) {
        return calls * (double) records * 1e9 / nanos;
    }

    private static double median(double[] sorted) {
        return sorted[sorted.length / 2];
    }
}
