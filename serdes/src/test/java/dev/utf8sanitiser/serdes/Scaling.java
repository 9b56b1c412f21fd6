package dev.utf8sanitiser.serdes;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.IntFunction;

/**
 * How a piece of work grows with its input: the time at size 2n over the time at size n, both
 * measured in the same test. Linear work gives about 2, quadratic about 4.
 *
 * <p>Times are the CPU time of the test's thread, so other processes on a shared machine and the
 * collector's own threads do not count; each figure is the best of several samples after a long
 * warm-up (the JIT compiles the small input's loops before it sees the large one's), and each sample
 * repeats the work until it takes tens of milliseconds.
 */
public final class Scaling {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long SAMPLE_NANOS = 20_000_000L;
    private static final long WARM_UP_NANOS = 300_000_000L;
    private static final int ATTEMPTS = 3;

    private Scaling() {}

    /**
     * The ratio, measured until it is at most {@code limit} or {@value #ATTEMPTS} times, the lowest
     * of them: work that grows faster than {@code limit} allows exceeds it every time, a JIT
     * recompilation or a burst of cache misses from a neighbour does not.
     *
     * @param work the work for an input of a given size, built before timing starts
     */
    public static double doublingRatio(IntFunction<Runnable> work, int n, double limit) {
        Runnable small = work.apply(n);
        Runnable large = work.apply(2 * n);
        double lowest = Double.MAX_VALUE;
        for (int attempt = 0; attempt < ATTEMPTS && lowest > limit; attempt++) {
            lowest = Math.min(lowest, ratio(small, large));
        }
        return lowest;
    }

    private static double ratio(Runnable small, Runnable large) {
        long warm = 0;
        for (int i = 0; i < 20 || warm < WARM_UP_NANOS; i++) {
            warm += time(small, 1) + time(large, 1);
        }
        int repeats = (int) Math.max(1, SAMPLE_NANOS / Math.max(1, time(small, 1)));
        long bestSmall = Long.MAX_VALUE;
        long bestLarge = Long.MAX_VALUE;
        for (int i = 0; i < 7; i++) {
            bestSmall = Math.min(bestSmall, time(small, repeats));
            bestLarge = Math.min(bestLarge, time(large, repeats));
        }
        return (double) bestLarge / bestSmall;
    }

    private static long time(Runnable work, int repeats) {
        long start = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < repeats; i++) {
            work.run();
        }
        return THREADS.getCurrentThreadCpuTime() - start;
    }
}
