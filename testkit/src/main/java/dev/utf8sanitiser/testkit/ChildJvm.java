package dev.utf8sanitiser.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * JVM options for the child processes that tests start: sanitisers, command lines, the cluster
 * tests' brokers, Apicurio. (EmbeddedKafka's single broker keeps the default compilers.)
 */
public final class ChildJvm {
    private ChildJvm() {}

    /**
     * The C1 compiler only, and one GC thread. A test child handles little data, so C2's peak speed
     * never pays for the CPU it spends compiling, and on a 2-core machine that CPU is taken from the
     * other JVMs of the same test.
     */
    public static final List<String> LIGHT = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    /** {@code maxHeap} (such as {@code -Xmx384m}), then {@link #LIGHT}. */
    public static List<String> options(String maxHeap) {
        List<String> options = new ArrayList<>();
        options.add(maxHeap);
        options.addAll(LIGHT);
        return List.copyOf(options);
    }

    /**
     * {@code java} of this JVM, {@link #options}, {@code moreOptions}, this JVM's class path, then
     * {@code mainClass} and {@code args}.
     */
    public static List<String> command(String maxHeap, List<String> moreOptions, String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options(maxHeap));
        command.addAll(moreOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }
}
