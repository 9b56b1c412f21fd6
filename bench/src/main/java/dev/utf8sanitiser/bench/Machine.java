package dev.utf8sanitiser.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.utf8sanitiser.core.VectorSupport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * What the end-to-end report says about the machine (CPUs, memory, OS, JVM, Kafka), and the CPU
 * time of this JVM and of the broker's, which the runs measure.
 */
final class Machine {
    private Machine() {}

    /** One line for the report: CPUs, memory, OS, JVM, Kafka, and where each part runs. */
    static String describe() {
        return String.format(
                Locale.ROOT,
                "%s; Kafka %s, one broker (KRaft, combined broker and controller) in a child JVM (-Xmx512m) on the"
                        + " same machine; the application, loading producer and counting consumer in the benchmark"
                        + " JVM (max heap %d MiB); UTF-8 validation on the %s path",
                basics(),
                kafkaVersion(),
                Runtime.getRuntime().maxMemory() >> 20,
                VectorSupport.describe());
    }

    /** CPUs, memory, OS and this JVM. */
    static String basics() {
        String memory = "";
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean sun) {
            memory = String.format(Locale.ROOT, ", %.0f GiB RAM", sun.getTotalMemorySize() / (double) (1L << 30));
        }
        return String.format(
                Locale.ROOT,
                "%d CPUs (%s)%s, %s %s %s; %s %s",
                Runtime.getRuntime().availableProcessors(),
                cpuModel(),
                memory,
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                System.getProperty("os.arch"),
                System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"));
    }

    /**
     * The kafka-clients version on the class path, from the file its jar carries for the same
     * purpose ({@code kafka/kafka-version.properties}); the class that reads it is internal.
     */
    static String kafkaVersion() {
        try (InputStream in = Machine.class.getResourceAsStream("/kafka/kafka-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * CPU time the whole machine spent busy, all CPUs together, in nanoseconds: user, nice, system,
     * irq and softirq of {@code /proc/stat} (Linux; 0 elsewhere), at 100 ticks a second. Idle, I/O
     * wait and time the hypervisor stole are not work done here.
     */
    static long machineBusyNanos() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/stat"))) {
            String[] fields = lines.findFirst().orElseThrow().trim().split("\\s+");
            long ticks = 0;
            for (int field : new int[] {1, 2, 3, 6, 7}) {
                ticks += Long.parseLong(fields[field]);
            }
            return ticks * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** This JVM's CPU time in nanoseconds, or 0 where the JVM does not tell. */
    static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean sun
                ? Math.max(0, sun.getProcessCpuTime())
                : 0;
    }

    /**
     * Another process's CPU time (user and system) in nanoseconds, from {@code /proc/PID/stat}
     * (Linux; 0 elsewhere). Fields 14 and 15 count clock ticks, 100 a second on Linux.
     */
    static long childCpuNanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name, field 2, is in parentheses and may hold spaces: count after it.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return ticks * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The one-minute load average, or {@code n/a}. */
    static String loadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", load);
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown model");
        } catch (IOException | UncheckedIOException e) {
            return "unknown model";
        }
    }
}
