package dev.utf8sanitiser.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import kafka.Kafka;
import kafka.tools.StorageTool;

/**
 * The entry point of the child JVM that {@link EmbeddedKafka} starts: {@code kafka-storage format
 * --standalone}, then {@code kafka-server-start}, in one JVM, plus a watchdog that stops the broker
 * when the parent JVM goes away.
 *
 * <p>Usage: {@code java -cp <class path> dev.utf8sanitiser.testkit.BrokerMain <server.properties>
 * <cluster id> [restart]}; with {@code restart} the log directory, formatted by the first start, is
 * used as it is.
 *
 * <p>Why a main class of our own rather than {@code kafka.tools.StorageTool} and {@code kafka.Kafka}
 * in two processes:
 *
 * <ul>
 *   <li>one JVM start instead of two: Scala and Kafka's class loading cost about two seconds per
 *       JVM on a two-core machine;
 *   <li>a parent that dies without running its shutdown hooks ({@code kill -9}, a crashed test JVM)
 *       cannot stop its children, so the child watches for that itself: its standard input is a pipe
 *       from the parent, and the operating system closes that pipe when the parent dies, however it
 *       dies. End of input therefore means "the parent has gone".
 * </ul>
 */
final class BrokerMain {

    /** How long Kafka's own shutdown hook may take after the parent has gone before we halt. */
    private static final Duration HALT_AFTER = Duration.ofSeconds(15);

    /** The third argument that says the log directory is already formatted. */
    static final String RESTART = "restart";

    private BrokerMain() {}

    public static void main(String[] args) {
        boolean restart = args.length == 3 && RESTART.equals(args[2]);
        if (args.length != 2 && !restart) {
            System.err.println("usage: BrokerMain <server.properties> <cluster id> [" + RESTART + "]");
            System.exit(2);
        }
        String serverProperties = args[0];
        String clusterId = args[1];
        exitWhenParentGoes(System.in);
        int formatted = restart ? 0 : format(serverProperties, clusterId);
        if (formatted != 0) {
            System.exit(formatted);
        }
        // Blocks until the broker shuts down, then exits the JVM itself.
        Kafka.main(new String[] {serverProperties});
    }

    /**
     * {@code kafka-storage format --config <file> --cluster-id <id> --standalone}: writes
     * meta.properties and the bootstrap metadata, and makes this node the single voter of a
     * dynamic (KIP-853) controller quorum. {@code --standalone} requires {@code
     * controller.quorum.bootstrap.servers} and forbids {@code controller.quorum.voters}; a node of a
     * {@link KafkaCluster}, whose properties name its static voters, is formatted without it.
     */
    private static int format(String serverProperties, String clusterId) {
        String[] command = staticVoters(serverProperties)
                ? new String[] {"format", "--config", serverProperties, "--cluster-id", clusterId}
                : new String[] {"format", "--config", serverProperties, "--cluster-id", clusterId, "--standalone"};
        try {
            return StorageTool.execute(command, System.out);
        } catch (Exception e) {
            // FormatterException, TerseFailure (a bad option) and ConfigException (a bad broker
            // property) all end here; StorageTool.main would print only the message and exit.
            System.err.println("kafka-storage format failed: " + e.getMessage());
            e.printStackTrace();
            return 1;
        }
    }

    private static boolean staticVoters(String serverProperties) {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(serverProperties))) {
            properties.load(in);
        } catch (IOException e) {
            return false; // the format itself reports the unreadable file
        }
        return properties.containsKey("controller.quorum.voters");
    }

    private static void exitWhenParentGoes(InputStream fromParent) {
        Thread watchdog = new Thread(
                () -> {
                    drain(fromParent);
                    System.err.println("testkit: the parent JVM has gone; stopping the broker");
                    Thread halt = new Thread(
                            () -> {
                                sleep(HALT_AFTER);
                                Runtime.getRuntime().halt(1);
                            },
                            "testkit-halt");
                    halt.setDaemon(true);
                    halt.start();
                    // Runs Kafka's shutdown hook, which stops the broker cleanly.
                    System.exit(1);
                },
                "testkit-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private static void drain(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) != -1) {
                // The parent never writes; anything it does write is ignored.
            }
        } catch (IOException e) {
            // A broken pipe means the same as end of input.
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
