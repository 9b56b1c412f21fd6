package dev.utf8sanitiser.testkit;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One broker's child JVM ({@link BrokerMain}), as {@link EmbeddedKafka} and {@link KafkaCluster}
 * start them: its {@code server.properties}, its Log4j 2 configuration, its command (this JVM's
 * {@code java} and class path), its log file, and the running process, which a restart replaces.
 * The owner decides when each step may happen; this class only carries it out.
 */
final class BrokerNode {
    private static final Duration GRACEFUL_STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration FORCED_STOP_TIMEOUT = Duration.ofSeconds(10);

    private final Path directory;
    private final Path logFile;
    private final List<String> command;
    private Process process; // guarded by this; replaced by relaunch()

    private BrokerNode(Path directory, Path logFile, List<String> command) {
        this.directory = directory;
        this.logFile = logFile;
        this.command = command;
    }

    /**
     * Writes {@code server.properties} and {@code log4j2.properties} into {@code directory} and
     * makes the command: {@code commandPrefix} (empty, or what runs it in a network namespace),
     * {@code java}, then {@code jvmOptions} (heap, compiler, GC), then the options every node has.
     * Nothing runs until {@link #launch}.
     */
    static BrokerNode prepare(
            Path directory,
            Map<String, String> config,
            String logLevel,
            String clusterId,
            List<String> commandPrefix,
            List<String> jvmOptions) {
        Path serverProperties = directory.resolve("server.properties");
        Path log4jConfig = directory.resolve("log4j2.properties");
        writeProperties(serverProperties, config);
        writeString(log4jConfig, log4jConfiguration(logLevel));
        List<String> command = new ArrayList<>(commandPrefix);
        command.add(javaExecutable());
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-XX:+ExitOnOutOfMemoryError",
                "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=" + log4jConfig,
                "-cp",
                childClassPath(),
                BrokerMain.class.getName(),
                serverProperties.toString(),
                clusterId));
        return new BrokerNode(directory, directory.resolve("broker.log"), List.copyOf(command));
    }

    /** The child's standard output and error, where the broker logs. */
    Path logFile() {
        return logFile;
    }

    /** The running JVM, or the last one to have run. */
    synchronized Process process() {
        return process;
    }

    /** Starts the JVM for the first time: it formats the log directory, and the log is new. */
    synchronized Process launch() {
        process = launch(command, directory, logFile, false);
        return process;
    }

    /** Starts the JVM again on the formatted log directory, appending to the log. */
    synchronized Process relaunch() {
        process = launch(command, directory, logFile, true);
        return process;
    }

    /** SIGKILL: no controlled shutdown, no flush; returns once the JVM has gone. */
    void kill() {
        Process current = process();
        current.destroyForcibly();
        awaitExitUninterruptibly(current, FORCED_STOP_TIMEOUT);
        closeQuietly(current);
    }

    /**
     * SIGTERM: Kafka's controlled shutdown, waited for up to 30 s, then SIGKILL; returns once the
     * JVM has gone.
     */
    void stop() {
        Process current = process();
        current.destroy();
        if (!awaitExitUninterruptibly(current, GRACEFUL_STOP_TIMEOUT)) {
            current.destroyForcibly();
        }
        awaitExitUninterruptibly(current, FORCED_STOP_TIMEOUT);
        closeQuietly(current);
    }

    /** The last {@code count} lines of the log, for a start-up failure's message. */
    String logTail(int count) {
        try {
            // new String(bytes, UTF_8) replaces ill-formed bytes rather than failing.
            List<String> lines =
                    new String(Files.readAllBytes(logFile), UTF_8).lines().collect(Collectors.toList());
            if (lines.isEmpty()) {
                return "(empty)";
            }
            return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
        } catch (IOException e) {
            return "(could not read " + logFile + ": " + e + ")";
        }
    }

    /**
     * Starts the child. A restart appends to the log rather than replacing it, and tells {@link
     * BrokerMain} not to format the log directory again.
     */
    private static Process launch(List<String> command, Path directory, Path logFile, boolean restart) {
        List<String> arguments = new ArrayList<>(command);
        if (restart) {
            arguments.add(BrokerMain.RESTART);
        }
        ProcessBuilder builder = new ProcessBuilder(arguments)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(
                        restart
                                ? ProcessBuilder.Redirect.appendTo(logFile.toFile())
                                : ProcessBuilder.Redirect.to(logFile.toFile()));
        // Standard input stays a pipe from this JVM: BrokerMain stops when it closes.
        // Options meant for this JVM (a debugger agent on a fixed port, say) must not reach
        // the child, where they would clash or fail.
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("_JAVA_OPTIONS");
        try {
            return builder.start();
        } catch (IOException e) {
            throw new EmbeddedKafkaException("Could not start " + arguments.get(0), e);
        }
    }

    private static void closeQuietly(Process child) {
        try {
            child.getOutputStream().close();
        } catch (IOException e) {
            // The child has gone; nothing to tell it.
        }
    }

    /**
     * Waits for the child to exit. An interrupt does not cut the wait short (the directory must
     * not be deleted under a live broker); it is passed on when the wait is over.
     */
    private static boolean awaitExitUninterruptibly(Process process, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return process.waitFor(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
    /** The child's logging: everything to standard output, which is {@code broker.log}. */
    private static String log4jConfiguration(String rootLevel) {
        return String.join(
                "\n",
                "# Written by EmbeddedKafka for the child broker JVM.",
                "status = warn",
                "appender.out.type = Console",
                "appender.out.name = out",
                "appender.out.layout.type = PatternLayout",
                "appender.out.layout.pattern = [%d] %p %m (%c)%n",
                "rootLogger.level = " + rootLevel,
                "rootLogger.appenderRef.out.ref = out",
                // One line that says the broker is up, whatever the root level.
                "logger.started.name = kafka.server.KafkaRaftServer",
                "logger.started.level = INFO",
                "");
    }

    /**
     * The class path for the child: this JVM's own, so the child runs exactly the Kafka that the
     * tests or the application were built with, and no second copy of Kafka is needed.
     *
     * <ul>
     *   <li>Plain class path ({@code java -cp a.jar:b.jar}, an IDE): used as it is.
     *   <li>Shaded application jar ({@code java -jar app.jar}): {@code java.class.path} is that
     *       jar, which holds Kafka, {@link BrokerMain} and the Log4j binding.
     *   <li>Maven Surefire: its forked test JVM is started with a "manifest-only jar" (a jar whose
     *       manifest {@code Class-Path} lists the test class path), but Surefire's booter then
     *       sets {@code java.class.path} to the real test class path, so the child gets every
     *       entry. Should some runner leave only the manifest-only jar there, the child still
     *       works, because the {@code java} launcher follows a jar's manifest {@code Class-Path}
     *       too. So no Surefire setting ({@code useManifestOnlyJar}, {@code
     *       useSystemClassLoader}) is needed.
     * </ul>
     *
     * Relative entries are made absolute: the child runs in the temporary directory.
     */
    private static String childClassPath() {
        String classPath = System.getProperty("java.class.path", "");
        return Arrays.stream(classPath.split(File.pathSeparator))
                .filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** The {@code java} of this JVM, so the child runs on the same Java. */
    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Writes the properties with {@link Properties#store(java.io.OutputStream, String)}'s escaping
     * (ISO 8859-1 with Unicode escapes, which is how Kafka reads them), one property a line, sorted
     * so that a person debugging a test can read the file.
     */
    private static void writeProperties(Path file, Map<String, String> config) {
        Properties properties = new Properties();
        properties.putAll(config);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            properties.store(bytes, "Written by EmbeddedKafka");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> lines = new String(bytes.toByteArray(), ISO_8859_1).lines().collect(Collectors.toList());
        List<String> comments = lines.stream().filter(l -> l.startsWith("#")).collect(Collectors.toList());
        List<String> entries =
                lines.stream().filter(l -> !l.startsWith("#")).sorted().collect(Collectors.toList());
        comments.addAll(entries);
        try {
            Files.write(file, comments, ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + file, e);
        }
    }

    private static void writeString(Path file, String content) {
        try {
            Files.writeString(file, content, UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + file, e);
        }
    }
}
