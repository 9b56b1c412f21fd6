package dev.utf8sanitiser.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * A real single-node Kafka cluster (KRaft, {@code process.roles=broker,controller}) in a child JVM,
 * for integration tests and for running the sanitiser without an installed broker.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
 *     kafka.createTopics("in", "out");
 *     try (var producer = new KafkaProducer<byte[], byte[]>(kafka.producerConfig())) { ... }
 * }
 * }</pre>
 *
 * <p>{@link #start()} makes a fresh temporary directory with a {@code server.properties}, a Log4j 2
 * configuration, the log directory and {@code broker.log} (the child's standard output and error);
 * starts {@link BrokerMain} in a child JVM on this JVM's own class path, which formats the log
 * directory ({@code kafka-storage format --standalone}) and runs {@code kafka.Kafka}; and returns
 * once an Admin client's {@code describeCluster()} is answered. The broker listens on a free port
 * of 127.0.0.1 only. {@link #close()} stops the child (gracefully, then by force) and deletes the
 * directory.
 *
 * <p>The cluster is set up for one node: every internal topic (consumer offsets, transaction state,
 * share-group state) has replication factor 1, minimum ISR 1 and one partition, so transactions
 * and exactly-once Kafka Streams work and the first consumer group starts fast; group rebalances
 * are not delayed. Automatic topic creation is left on, Kafka's default, so that a first {@code
 * run} of the application works without set-up; tests should still create their topics with
 * {@link #createTopics} so that partition counts are explicit.
 *
 * <p>If this JVM ends without calling {@link #close()}, a shutdown hook stops the broker. If this
 * JVM is killed so that no hook runs ({@code kill -9}, a crash), the child notices that its
 * standard input (a pipe from this JVM) has closed and stops itself; see {@link BrokerMain}.
 */
public final class EmbeddedKafka implements AutoCloseable {

    /** How long {@link #start()} waits for the broker to answer, unless told otherwise. */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(90);

    /** How long {@link #createTopics} waits for the broker. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    /** How many lines of the broker's log a start-up failure quotes. */
    private static final int LOG_TAIL_LINES = 50;

    private static final String LOOPBACK = "127.0.0.1";

    /** The child's maximum heap: ample for a test broker, small next to a 2-core CI machine. */
    private static final String CHILD_MAX_HEAP = "-Xmx512m";

    /**
     * Broker properties that {@link EmbeddedKafka} owns: they tie the listeners, the ports, the
     * quorum and the directories together, and {@link #bootstrapServers()} depends on them.
     */
    private static final Set<String> RESERVED_PROPERTIES = Set.of(
            "process.roles",
            "node.id",
            "listeners",
            "advertised.listeners",
            "controller.listener.names",
            "listener.security.protocol.map",
            "inter.broker.listener.name",
            "controller.quorum.bootstrap.servers",
            "controller.quorum.voters",
            "log.dir",
            "log.dirs",
            "metadata.log.dir");

    private static final Set<String> LOG4J_LEVELS =
            Set.of("OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE", "ALL");

    private final Path directory;
    private final int port;
    private final BrokerNode node; // its process is replaced by restart()
    private final Thread shutdownHook;
    private Admin admin; // set once the broker answers
    private boolean closed; // guarded by this
    private volatile boolean shared; // set once by SharedKafka; then only SharedKafka stops it

    private EmbeddedKafka(Path directory, int port, BrokerNode node) {
        this.directory = directory;
        this.port = port;
        this.node = node;
        this.shutdownHook = new Thread(
                this::stop, "embedded-kafka-shutdown-" + node.process().pid());
    }

    /** Starts a broker with the defaults; see {@link Builder} for the options. */
    public static EmbeddedKafka start() {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return LOOPBACK + ":" + port;
    }

    /** The temporary directory that holds the configuration, the log directory and the log. */
    public Path directory() {
        return directory;
    }

    /** The child's standard output and error, where the broker logs. */
    public Path logFile() {
        return node.logFile();
    }

    /** The process id of the child JVM (a new one after each {@link #restart}). */
    public synchronized long pid() {
        return node.process().pid();
    }

    /** Whether the broker's JVM is running: false between {@link #stopBroker} and {@link #restart}. */
    public synchronized boolean isRunning() {
        return node.process().isAlive();
    }

    /**
     * Stops the broker's JVM and keeps its directory, so that {@link #restart} brings the same
     * broker back, with its data, on the same ports: a bounce, for fault tests. {@code hard} sends
     * SIGKILL (no shutdown, no flush: a crash); otherwise SIGTERM, which runs Kafka's controlled
     * shutdown, waited for up to 30 s and then killed. Returns once the JVM has exited.
     */
    public void stopBroker(boolean hard) {
        refuseIfShared("stopped");
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("The embedded Kafka broker has been closed");
            }
        }
        if (hard) {
            node.kill();
        } else {
            node.stop();
        }
    }

    /**
     * Starts the broker again after {@link #stopBroker}, with the same configuration, ports and log
     * directory (already formatted, so the child skips formatting), and waits until it answers.
     */
    public void restart() {
        restart(DEFAULT_STARTUP_TIMEOUT);
    }

    public void restart(Duration timeout) {
        refuseIfShared("restarted");
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("The embedded Kafka broker has been closed");
            }
            if (node.process().isAlive()) {
                throw new IllegalStateException("The broker is running; stop it first");
            }
            node.relaunch();
        }
        awaitReady(timeout);
    }

    /** Creates topics of one partition each. */
    public void createTopics(String... names) {
        createTopics(1, names);
    }

    /** Creates topics of {@code partitions} partitions each, and waits until they exist. */
    public void createTopics(int partitions, String... names) {
        List<NewTopic> topics = Arrays.stream(names)
                .map(name -> new NewTopic(name, partitions, (short) 1))
                .collect(Collectors.toList());
        try {
            admin().createTopics(topics).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            awaitLeaders(Arrays.asList(names));
        } catch (ExecutionException e) {
            throw new EmbeddedKafkaException(
                    "Could not create topics " + Arrays.toString(names) + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new EmbeddedKafkaException("Creating topics " + Arrays.toString(names) + " timed out", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedKafkaException("Interrupted while creating topics " + Arrays.toString(names), e);
        }
    }

    /**
     * Waits until the broker's metadata names a leader for every partition of {@code names}. The
     * controller answers a creation before that: a producer that writes at once can get
     * NOT_LEADER_OR_FOLLOWER on its first batch, and Kafka's idempotent producer then retries its
     * next batches with OUT_OF_ORDER_SEQUENCE_NUMBER for ever (seen once in ExactlyOnceCrashIT).
     * The broker's own metadata can lag the controller too: describing a topic just created can
     * answer UNKNOWN_TOPIC_OR_PARTITION (seen once in a CI run), which means "not yet" here.
     */
    private void awaitLeaders(List<String> names) throws ExecutionException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
        while (true) {
            if (haveLeaders(names)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("no leader for every partition of " + names);
            }
            Thread.sleep(50);
        }
    }

    private boolean haveLeaders(List<String> names) throws ExecutionException, InterruptedException, TimeoutException {
        try {
            return admin()
                    .describeTopics(names)
                    .allTopicNames()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .values()
                    .stream()
                    .flatMap(description -> description.partitions().stream())
                    .allMatch(partition ->
                            partition.leader() != null && !partition.leader().isEmpty());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return false;
            }
            throw e;
        }
    }

    /** {@code bootstrap.servers} only; a new, modifiable map on each call. */
    public Map<String, Object> adminConfig() {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return config;
    }

    /** {@code bootstrap.servers} and {@code byte[]} serializers; a new, modifiable map each call. */
    public Map<String, Object> producerConfig() {
        return ClientConfigs.producer(adminConfig());
    }

    /**
     * {@code bootstrap.servers}, the group, {@code byte[]} deserializers and {@code
     * auto.offset.reset=earliest} (a test reads what it wrote before it subscribed); a new,
     * modifiable map on each call.
     */
    public Map<String, Object> consumerConfig(String groupId) {
        return ClientConfigs.consumer(adminConfig(), groupId);
    }

    /**
     * Stops the broker and deletes its directory. Sends the child SIGTERM, which runs Kafka's own
     * shutdown hook, waits up to 30 s, then kills it. Idempotent.
     */
    @Override
    public void close() {
        refuseIfShared("closed");
        closeNow();
    }

    /**
     * Marks this broker as shared by the test classes of a run ({@link SharedKafka}): from now on
     * {@link #stopBroker}, {@link #restart} and {@link #close} refuse, since another test class may
     * be using it. A test that stops its broker starts one of its own.
     */
    EmbeddedKafka share() {
        shared = true;
        return this;
    }

    /** Whether {@link SharedKafka} shares this broker between test classes. */
    public boolean isShared() {
        return shared;
    }

    /** Closes a shared broker: {@link SharedKafka}'s, at the end of the test run. */
    void closeShared() {
        closeNow();
    }

    private void refuseIfShared(String what) {
        if (shared) {
            throw new IllegalStateException("This broker is shared by the test run (SharedKafka) and cannot be " + what
                    + " by one test; start a broker of its own with EmbeddedKafka.start()");
        }
    }

    private void closeNow() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down, and the hook is running or has run.
        }
        stop();
    }

    private synchronized Admin admin() {
        if (closed) {
            throw new IllegalStateException("The embedded Kafka broker has been closed");
        }
        return admin;
    }

    private void stop() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        Admin client;
        synchronized (this) {
            client = admin;
        }
        if (client != null) {
            client.close(Duration.ofSeconds(5));
        }
        node.stop();
        deleteRecursively(directory);
    }

    /** Waits until the broker answers {@code describeCluster()}, or fails with its log's tail. */
    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Process child;
        synchronized (this) {
            child = node.process();
            if (admin != null) {
                // A restart: the old client is closed so that it cannot hold stale metadata.
                admin.close(Duration.ZERO);
                admin = null;
            }
        }
        Admin client = Admin.create(adminConfig());
        while (true) {
            if (!child.isAlive()) {
                client.close(Duration.ZERO);
                throw startupFailure("The broker exited with code " + child.exitValue() + " during start-up.");
            }
            long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (remainingMillis <= 0) {
                client.close(Duration.ZERO);
                throw startupFailure("The broker did not answer within " + timeout.toSeconds() + " s.");
            }
            int attemptMillis = (int) Math.min(remainingMillis, 2_000);
            try {
                Collection<Node> nodes = client.describeCluster(new DescribeClusterOptions().timeoutMs(attemptMillis))
                        .nodes()
                        .get();
                if (!nodes.isEmpty()) {
                    synchronized (this) {
                        admin = client;
                    }
                    return;
                }
            } catch (ExecutionException e) {
                // Not listening yet, or not yet part of its own cluster: ask again.
            } catch (InterruptedException e) {
                client.close(Duration.ZERO);
                Thread.currentThread().interrupt();
                throw startupFailure("Interrupted while waiting for the broker.");
            }
            sleepQuietly(100);
        }
    }

    /** Reads the log's tail, stops the child, and describes both in one exception. */
    private EmbeddedKafkaException startupFailure(String reason) {
        String tail = node.logTail(LOG_TAIL_LINES);
        closeNow();
        return new EmbeddedKafkaException(
                reason + " The end of its log, " + node.logFile() + " (now deleted):\n" + tail);
    }

    /** Options for {@link #start()}. */
    public static final class Builder {
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();
        private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
        private String logLevel = "WARN";

        private Builder() {}

        /**
         * Sets a broker property, overriding the defaults (for example {@code num.partitions} or
         * {@code auto.create.topics.enable}). The listener, quorum, node and directory properties
         * belong to {@link EmbeddedKafka} and are refused.
         */
        public Builder brokerProperty(String key, String value) {
            if (RESERVED_PROPERTIES.contains(key)) {
                throw new IllegalArgumentException(
                        key + " is set by EmbeddedKafka; it ties the listeners, quorum and directories together");
            }
            brokerProperties.put(key, value);
            return this;
        }

        public Builder brokerProperties(Map<String, String> properties) {
            properties.forEach(this::brokerProperty);
            return this;
        }

        /** How long to wait for the broker to answer; 90 s unless told. */
        public Builder startupTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("startup timeout must be positive: " + timeout);
            }
            this.startupTimeout = timeout;
            return this;
        }

        /** The Log4j 2 level of the broker's root logger ({@code WARN} unless told). */
        public Builder logLevel(String level) {
            String upper = level.toUpperCase(Locale.ROOT);
            if (!LOG4J_LEVELS.contains(upper)) {
                throw new IllegalArgumentException("not a Log4j level: " + level);
            }
            this.logLevel = upper;
            return this;
        }

        /** Starts the broker and waits until it answers; see {@link EmbeddedKafka}. */
        public EmbeddedKafka start() {
            Path directory = createTempDirectory();
            try {
                return start(directory);
            } catch (RuntimeException e) {
                deleteRecursively(directory);
                throw e;
            }
        }

        private EmbeddedKafka start(Path directory) {
            int[] ports = freeLoopbackPorts(2);
            int brokerPort = ports[0];
            int controllerPort = ports[1];
            Map<String, String> config = defaultBrokerProperties(brokerPort, controllerPort, directory.resolve("data"));
            config.putAll(brokerProperties);
            // The default compilers, unlike ChildJvm's other children: this broker lives through a
            // whole module's tests and carries all their traffic, and a slower broker widens the
            // windows that the fault tests' broker SIGKILLs fall into.
            BrokerNode node = BrokerNode.prepare(
                    directory, config, logLevel, Uuid.randomUuid().toString(), List.of(), List.of(CHILD_MAX_HEAP));
            node.launch();
            EmbeddedKafka kafka = new EmbeddedKafka(directory, brokerPort, node);
            Runtime.getRuntime().addShutdownHook(kafka.shutdownHook);
            kafka.awaitReady(startupTimeout);
            return kafka;
        }
    }

    /** The settings of a one-node cluster; see the class comment. */
    private static Map<String, String> defaultBrokerProperties(int brokerPort, int controllerPort, Path logDir) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put(
                "listeners",
                "PLAINTEXT://" + LOOPBACK + ":" + brokerPort + ",CONTROLLER://" + LOOPBACK + ":" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://" + LOOPBACK + ":" + brokerPort);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("controller.listener.names", "CONTROLLER");
        // A dynamic (KIP-853) quorum, as `kafka-storage format --standalone` requires: bootstrap
        // servers, never controller.quorum.voters.
        p.put("controller.quorum.bootstrap.servers", LOOPBACK + ":" + controllerPort);
        p.put("log.dirs", logDir.toString());
        p.put("num.partitions", "1");
        p.put("auto.create.topics.enable", "true");
        // Internal topics: one replica, one in-sync replica suffices, one partition (fifty by
        // default, which makes the first group or transaction wait for fifty leaders).
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("share.coordinator.state.topic.num.partitions", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        return p;
    }

    /**
     * Distinct free ports on 127.0.0.1: all are held open together so that they differ, then
     * released for the broker. Another process could take one in between; on a test machine that
     * is rare enough to accept (the start-up error then says "Address already in use").
     */
    static int[] freeLoopbackPorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            InetAddress loopback = InetAddress.getByName(LOOPBACK);
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, loopback);
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not find a free port on " + LOOPBACK, e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // Closing a listening socket that never accepted does not fail in practice.
                }
            }
        }
    }

    private static Path createTempDirectory() {
        try {
            return Files.createTempDirectory("embedded-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Could not create a temporary directory in " + System.getProperty("java.io.tmpdir")
                            + " (java.io.tmpdir)",
                    e);
        }
    }

    static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete " + directory, e);
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
