package dev.utf8sanitiser.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * This JVM's CPU time by kind of thread, from {@code /proc/self/task} (Linux; empty elsewhere):
 * every thread the kernel sees, so also the garbage collector's and the JIT compilers', which
 * {@code ThreadMXBean} does not list. Threads are told apart by the name the kernel has for them,
 * the first 15 bytes of the Java name. It answers where the application's CPU a record goes when
 * the stream thread alone does not account for it.
 */
final class ThreadCpu {
    /** The kinds, in the order they are printed. */
    static final String STREAM = "stream";

    static final String PRODUCER_IO = "producer I/O";
    static final String DRIVER = "driver";
    static final String GC = "GC";
    static final String JIT = "JIT";
    static final String OTHER = "other";

    /** Each thread's kind and CPU time in nanoseconds, by thread id. */
    record Snapshot(Map<Integer, Task> tasks) {}

    record Task(String kind, long nanos) {}

    private ThreadCpu() {}

    static Snapshot now() {
        Map<Integer, Task> tasks = new HashMap<>();
        try (Stream<Path> dirs = Files.list(Path.of("/proc/self/task"))) {
            dirs.forEach(dir -> {
                try {
                    String stat = Files.readString(dir.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    // Fields 14 and 15 (utime, stime) count clock ticks, 100 a second on Linux.
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    tasks.put(
                            Integer.parseInt(dir.getFileName().toString()), new Task(kind(name), ticks * 10_000_000L));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read: it counts for nothing
                }
            });
        } catch (IOException | RuntimeException e) {
            return new Snapshot(Map.of());
        }
        return new Snapshot(tasks);
    }

    /**
     * CPU seconds by kind between two snapshots: each thread's time at {@code after} less its time
     * at {@code before} (none if it started since). A thread that ended in between is not counted.
     */
    static Map<String, Double> between(Snapshot before, Snapshot after) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        for (String kind : new String[] {STREAM, PRODUCER_IO, DRIVER, GC, JIT, OTHER}) {
            seconds.put(kind, 0.0);
        }
        after.tasks().forEach((id, task) -> {
            Task earlier = before.tasks().get(id);
            long start = earlier == null || !earlier.kind().equals(task.kind()) ? 0 : earlier.nanos();
            seconds.merge(task.kind(), (task.nanos() - start) / 1e9, Double::sum);
        });
        return seconds;
    }

    /** The kind of a thread by its kernel name: Kafka's and the JVM's names, cut to 15 bytes. */
    static String kind(String name) {
        if (name.startsWith("e2e-")) {
            return STREAM; // the Streams application's threads are named by its application.id
        } else if (name.startsWith("kafka-producer-")) {
            return PRODUCER_IO;
        } else if (name.equals("java") || name.equals("main")) {
            return DRIVER; // the loading producer and the counting consumer run here
        } else if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
            return GC;
        } else if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
            return JIT;
        }
        return OTHER;
    }
}
