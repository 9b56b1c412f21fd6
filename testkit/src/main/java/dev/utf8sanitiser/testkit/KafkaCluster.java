package dev.utf8sanitiser.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;

/**
 * A real KRaft cluster of several nodes, each a child JVM ({@link BrokerMain}, as {@link
 * EmbeddedKafka} starts one) with the combined broker and controller roles, on 127.0.0.1: for the
 * fault tests that one broker cannot show (a leader that dies while its followers take over, an
 * ISR that shrinks and grows back, a controller that fails over).
 *
 * <pre>{@code
 * try (KafkaCluster cluster = KafkaCluster.start(3)) {
 *     cluster.createTopics(2, "in");
 *     int leader = cluster.leader(new TopicPartition("in", 0)).getAsInt();
 *     cluster.kill(leader);      // SIGKILL
 *     cluster.restart(leader);   // same ports, same log directory
 * }
 * }</pre>
 *
 * <p>Set up as a production cluster is, at a small scale: the controller quorum is static ({@code
 * controller.quorum.voters}: every node votes), topics get replication factor {@code min(3, nodes)}
 * and {@code min.insync.replicas} one less (at least 1), unclean leader election is off, and the
 * internal topics (consumer offsets, transaction state, share-group state) are replicated the same
 * way, with three partitions each. Session timeouts are Kafka's defaults, so a SIGKILLed leader
 * is replaced after {@code broker.session.timeout.ms} (9 s), as in production.
 *
 * <p>With {@link Builder#isolatedNetwork()}, each node runs in a network namespace of its own
 * ({@link IsolatedNetwork}, root only) on its own address instead of 127.0.0.1, and {@link
 * #cutOff} and {@link #reconnect} make and heal a network partition. With {@link
 * Builder#smallDisk}, a node's log directory is a small file system of its own ({@link SmallDisk},
 * root only) that {@link #fillDisk} fills.
 */
public final class KafkaCluster implements AutoCloseable {

    /** How long start-up and a restart wait for the nodes, unless told otherwise. */
    public static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    private static final String LOOPBACK = "127.0.0.1";

    /** Three JVMs share the machine with the tests: less heap each than a single broker gets. */
    private static final String CHILD_MAX_HEAP = "-Xmx384m";

    private final Path directory;
    private final Map<Integer, Member> nodes; // by node id, in order
    private final short replicationFactor;
    private final IsolatedNetwork network; // null: every node on 127.0.0.1
    private final Thread shutdownHook;
    private Admin admin; // guarded by this
    private boolean closed; // guarded by this

    /** One node: its broker address, its JVM (whose process a restart replaces), its disk if small. */
    private record Member(String host, int brokerPort, BrokerNode jvm, SmallDisk disk) {}

    private KafkaCluster(Path directory, Map<Integer, Member> nodes, short replicationFactor, IsolatedNetwork network) {
        this.directory = directory;
        this.nodes = nodes;
        this.replicationFactor = replicationFactor;
        this.network = network;
        this.shutdownHook = new Thread(this::stopAll, "kafka-cluster-shutdown");
    }

    /** Starts {@code nodes} nodes with the defaults and waits until every broker is registered. */
    public static KafkaCluster start(int nodes) {
        return builder(nodes).start();
    }

    public static Builder builder(int nodes) {
        return new Builder(nodes);
    }

    /** Every broker's {@code host:port}, comma-separated, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return nodes.values().stream()
                .map(node -> node.host + ":" + node.brokerPort)
                .collect(Collectors.joining(","));
    }

    /** The node ids, 1 to N. */
    public List<Integer> nodeIds() {
        return List.copyOf(nodes.keySet());
    }

    /** The replication factor of the topics {@link #createTopics} makes, and of the internal ones. */
    public short replicationFactor() {
        return replicationFactor;
    }

    /** The node's standard output and error, where it logs. */
    public Path logFile(int nodeId) {
        return node(nodeId).jvm().logFile();
    }

    public synchronized boolean isRunning(int nodeId) {
        return node(nodeId).jvm().process().isAlive();
    }

    /** SIGKILL: no controlled shutdown, no flush; returns once the JVM has gone. */
    public void kill(int nodeId) {
        running(nodeId).kill();
    }

    /**
     * SIGTERM: Kafka's controlled shutdown (leaders move away first), waited for up to 30 s, then
     * SIGKILL; returns once the JVM has gone.
     */
    public void stop(int nodeId) {
        running(nodeId).stop();
    }

    /**
     * Starts a stopped node again on the same ports and log directory, and waits until the
     * cluster lists it as a live broker.
     */
    public void restart(int nodeId) {
        Member node = node(nodeId);
        synchronized (this) {
            requireOpen();
            if (node.jvm().process().isAlive()) {
                throw new IllegalStateException("node " + nodeId + " is running; kill or stop it first");
            }
            node.jvm().relaunch();
        }
        awaitBrokers(Set.of(nodeId), STARTUP_TIMEOUT);
    }

    /**
     * Cuts {@code nodeId} off from the other nodes and from the clients; its JVM keeps running.
     * Only for a cluster started with {@link Builder#isolatedNetwork()}.
     */
    public void cutOff(int nodeId) {
        node(nodeId);
        requireNetwork().cutOff(nodeId);
    }

    /**
     * Fills the node's log directory until its file system refuses more; returns the bytes the
     * filler took. Only for a node given {@link Builder#smallDisk}.
     */
    public long fillDisk(int nodeId) {
        return requireDisk(nodeId).fill();
    }

    /** Frees what {@link #fillDisk} took. */
    public void freeDisk(int nodeId) {
        requireDisk(nodeId).free();
    }

    /** Heals what {@link #cutOff} did. */
    public void reconnect(int nodeId) {
        node(nodeId);
        requireNetwork().reconnect(nodeId);
    }

    /** The node that leads {@code partition} now, as the cluster's metadata says; empty if none. */
    public OptionalInt leader(TopicPartition partition) {
        Node leader = describe(partition).leader();
        return leader == null || leader.isEmpty() ? OptionalInt.empty() : OptionalInt.of(leader.id());
    }

    /** The in-sync replicas of {@code partition}, as the cluster's metadata says. */
    public List<Integer> isr(TopicPartition partition) {
        return describe(partition).isr().stream().map(Node::id).collect(Collectors.toList());
    }

    /**
     * Whether every partition of every topic, the internal ones included, has a leader and all its
     * replicas in sync: what a rolling restart waits for before it stops the next node.
     */
    public boolean allInSync() {
        try {
            Set<String> names = get(admin().listTopics(new ListTopicsOptions().listInternal(true))
                    .names());
            return get(admin().describeTopics(names).allTopicNames()).values().stream()
                    .flatMap(topic -> topic.partitions().stream())
                    .allMatch(info -> info.leader() != null
                            && !info.leader().isEmpty()
                            && info.isr().size() == info.replicas().size());
        } catch (EmbeddedKafkaException e) {
            return false; // no answer now: not known to be in sync
        }
    }

    /** The node that leads the controller quorum now (the active controller). */
    public int activeController() {
        return get(admin().describeMetadataQuorum().quorumInfo()).leaderId();
    }

    /** The node that leads the most partitions of {@code topic}. */
    public int busiestLeader(String topic) {
        Map<Integer, Integer> led = new HashMap<>();
        for (TopicPartitionInfo info : describeTopic(topic).partitions()) {
            if (info.leader() != null && !info.leader().isEmpty()) {
                led.merge(info.leader().id(), 1, Integer::sum);
            }
        }
        return led.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow(() -> new IllegalStateException("no partition of " + topic + " has a leader"))
                .getKey();
    }

    /** Waits until {@code condition} holds, polling every 100 ms; false when {@code timeout} passes. */
    public static boolean await(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            sleep(100);
        }
        return condition.getAsBoolean();
    }

    /** Creates topics with {@link #replicationFactor()} and waits until each partition has a leader. */
    public void createTopics(int partitions, String... names) {
        createTopics(Arrays.stream(names)
                .map(name -> new NewTopic(name, partitions, replicationFactor))
                .collect(Collectors.toList()));
    }

    /** Creates topics as given (replica assignments, configurations) and waits for their leaders. */
    public void createTopics(Collection<NewTopic> topics) {
        get(admin().createTopics(topics).all());
        List<String> names = topics.stream().map(NewTopic::name).collect(Collectors.toList());
        boolean led = await(
                () -> {
                    try {
                        return get(admin().describeTopics(names).allTopicNames()).values().stream()
                                .flatMap(topic -> topic.partitions().stream())
                                .allMatch(info -> info.leader() != null
                                        && !info.leader().isEmpty()
                                        && info.isr().size() == info.replicas().size());
                    } catch (EmbeddedKafkaException e) {
                        return false; // not yet in this broker's metadata
                    }
                },
                ADMIN_TIMEOUT);
        if (!led) {
            throw new EmbeddedKafkaException("no leader and full ISR for every partition of " + names);
        }
    }

    /** {@code bootstrap.servers} only; a new, modifiable map on each call. */
    public Map<String, Object> adminConfig() {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return config;
    }

    /** {@code bootstrap.servers}, {@code byte[]} serializers and {@code acks=all}. */
    public Map<String, Object> producerConfig() {
        Map<String, Object> config = ClientConfigs.producer(adminConfig());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        return config;
    }

    /** {@code bootstrap.servers}, the group, {@code byte[]} deserializers, {@code earliest}. */
    public Map<String, Object> consumerConfig(String groupId) {
        return ClientConfigs.consumer(adminConfig(), groupId);
    }

    /** Kills every node and deletes the directory. Idempotent. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down.
        }
        stopAll();
    }

    private void stopAll() {
        Admin client;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            client = admin;
        }
        if (client != null) {
            client.close(Duration.ZERO);
        }
        // SIGKILL: the data is deleted next, and a graceful stop of the last nodes would wait for a
        // controller quorum that has gone. Every node is signalled before any is waited for.
        nodes.values().forEach(node -> node.jvm().process().destroyForcibly());
        nodes.values().forEach(node -> node.jvm().kill());
        nodes.values().stream().filter(node -> node.disk() != null).forEach(node -> node.disk()
                .close());
        if (network != null) {
            network.close();
        }
        EmbeddedKafka.deleteRecursively(directory);
    }

    private synchronized SmallDisk requireDisk(int nodeId) {
        requireOpen();
        SmallDisk disk = node(nodeId).disk();
        if (disk == null) {
            throw new IllegalStateException("node " + nodeId + " was not given a small disk");
        }
        return disk;
    }

    private synchronized IsolatedNetwork requireNetwork() {
        requireOpen();
        if (network == null) {
            throw new IllegalStateException("the cluster was not started with isolatedNetwork()");
        }
        return network;
    }

    private TopicPartitionInfo describe(TopicPartition partition) {
        return describeTopic(partition.topic()).partitions().get(partition.partition());
    }

    private TopicDescription describeTopic(String topic) {
        return get(admin().describeTopics(List.of(topic)).allTopicNames()).get(topic);
    }

    private Member node(int nodeId) {
        Member node = nodes.get(nodeId);
        if (node == null) {
            throw new IllegalArgumentException("no node " + nodeId + "; the nodes are " + nodes.keySet());
        }
        return node;
    }

    private synchronized BrokerNode running(int nodeId) {
        requireOpen();
        BrokerNode jvm = node(nodeId).jvm();
        if (!jvm.process().isAlive()) {
            throw new IllegalStateException("node " + nodeId + " is not running");
        }
        return jvm;
    }

    private synchronized Admin admin() {
        requireOpen();
        return admin;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("The Kafka cluster has been closed");
        }
    }

    /** Waits until the cluster lists every broker of {@code ids} as live, or fails with their logs. */
    private void awaitBrokers(Set<Integer> ids, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (int id : ids) {
                Process process = node(id).jvm().process();
                if (!process.isAlive()) {
                    throw failure("node " + id + " exited with code " + process.exitValue() + " during start-up", id);
                }
            }
            try {
                Set<Integer> live = admin()
                        .describeCluster(new DescribeClusterOptions().timeoutMs(2_000))
                        .nodes()
                        .get(5, TimeUnit.SECONDS)
                        .stream()
                        .map(Node::id)
                        .collect(Collectors.toSet());
                if (live.containsAll(ids)) {
                    return;
                }
            } catch (ExecutionException | TimeoutException e) {
                // Not listening yet, or no quorum yet: ask again.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EmbeddedKafkaException("Interrupted while waiting for the cluster", e);
            }
            if (System.nanoTime() > deadline) {
                throw failure("nodes " + ids + " were not all live within " + timeout.toSeconds() + " s", ids);
            }
            sleep(200);
        }
    }

    private EmbeddedKafkaException failure(String reason, int id) {
        return failure(reason, Set.of(id));
    }

    private EmbeddedKafkaException failure(String reason, Set<Integer> ids) {
        StringBuilder message = new StringBuilder(reason).append('.');
        for (int id : ids) {
            message.append("\nThe end of node ")
                    .append(id)
                    .append("'s log:\n")
                    .append(node(id).jvm().logTail(30));
        }
        return new EmbeddedKafkaException(message.toString());
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new EmbeddedKafkaException(e.getCause().toString(), e.getCause());
        } catch (TimeoutException e) {
            throw new EmbeddedKafkaException("no answer within " + ADMIN_TIMEOUT.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedKafkaException("interrupted", e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Options for {@link #start}. */
    public static final class Builder {
        private final int count;
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();
        private String logLevel = "WARN";
        private boolean isolatedNetwork;
        private final Map<Integer, Integer> smallDisks = new HashMap<>(); // node id -> megabytes

        private Builder(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("a cluster has at least one node: " + count);
            }
            this.count = count;
        }

        /** Sets a broker property on every node, overriding the defaults. */
        public Builder brokerProperty(String key, String value) {
            brokerProperties.put(key, value);
            return this;
        }

        /** The Log4j 2 level of each node's root logger ({@code WARN} unless told). */
        public Builder logLevel(String level) {
            this.logLevel = level;
            return this;
        }

        /**
         * Each node in a network namespace of its own ({@link IsolatedNetwork}), so that {@link
         * #cutOff} can partition it; needs root ({@link IsolatedNetwork#available()}).
         */
        public Builder isolatedNetwork() {
            this.isolatedNetwork = true;
            return this;
        }

        /**
         * Puts node {@code nodeId}'s log directory (its partitions and the KRaft metadata log) on
         * a file system of {@code megabytes} of its own ({@link SmallDisk}), for {@link #fillDisk};
         * needs root ({@link SmallDisk#available()}).
         */
        public Builder smallDisk(int nodeId, int megabytes) {
            if (nodeId < 1 || nodeId > count) {
                throw new IllegalArgumentException("no node " + nodeId + " among 1 to " + count);
            }
            smallDisks.put(nodeId, megabytes);
            return this;
        }

        public KafkaCluster start() {
            Path directory;
            try {
                directory = Files.createTempDirectory("kafka-cluster-");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            List<Integer> ids = new ArrayList<>();
            for (int id = 1; id <= count; id++) {
                ids.add(id);
            }
            IsolatedNetwork network = null;
            Map<Integer, SmallDisk> disks = new HashMap<>();
            try {
                network = isolatedNetwork ? IsolatedNetwork.create(ids) : null;
                for (Map.Entry<Integer, Integer> disk : smallDisks.entrySet()) {
                    Path data = directory.resolve("node-" + disk.getKey()).resolve("data");
                    disks.put(disk.getKey(), SmallDisk.mount(data, disk.getValue()));
                }
                return start(directory, network, disks);
            } catch (RuntimeException e) {
                disks.values().forEach(SmallDisk::close);
                if (network != null) {
                    network.close();
                }
                EmbeddedKafka.deleteRecursively(directory);
                throw e;
            }
        }

        private KafkaCluster start(Path directory, IsolatedNetwork network, Map<Integer, SmallDisk> disks) {
            // In namespaces of their own every node has its own address, and the same ports are free.
            int[] ports = network == null ? EmbeddedKafka.freeLoopbackPorts(2 * count) : sharedPorts(count);
            short replication = (short) Math.min(3, count);
            String minIsr = Integer.toString(Math.max(1, replication - 1));
            List<String> voters = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                voters.add((i + 1) + "@" + host(network, i + 1) + ":" + ports[2 * i + 1]);
            }
            String clusterId = Uuid.randomUuid().toString();
            Map<Integer, Member> nodes = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                int id = i + 1;
                Path home = directory.resolve("node-" + id);
                try {
                    Files.createDirectories(home);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                String host = host(network, id);
                Map<String, String> config = properties(
                        id, host, ports[2 * i], ports[2 * i + 1], String.join(",", voters), home, replication, minIsr);
                config.putAll(brokerProperties);
                List<String> prefix = network == null ? List.of() : network.commandPrefix(id);
                List<String> jvmOptions = ChildJvm.options(CHILD_MAX_HEAP);
                nodes.put(
                        id,
                        new Member(
                                host,
                                ports[2 * i],
                                BrokerNode.prepare(home, config, logLevel, clusterId, prefix, jvmOptions),
                                disks.get(id)));
            }
            KafkaCluster cluster = new KafkaCluster(directory, nodes, replication, network);
            Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
            try {
                synchronized (cluster) {
                    for (Member node : nodes.values()) {
                        node.jvm().launch();
                    }
                    cluster.admin = Admin.create(cluster.adminConfig());
                }
                cluster.awaitBrokers(nodes.keySet(), STARTUP_TIMEOUT);
                return cluster;
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
        }

        private static String host(IsolatedNetwork network, int id) {
            return network == null ? LOOPBACK : network.address(id);
        }

        /** Kafka's usual ports, the same on every node: each listens on an address of its own. */
        private static int[] sharedPorts(int count) {
            int[] ports = new int[2 * count];
            for (int i = 0; i < count; i++) {
                ports[2 * i] = 9092;
                ports[2 * i + 1] = 9093;
            }
            return ports;
        }

        private static Map<String, String> properties(
                int id,
                String host,
                int brokerPort,
                int controllerPort,
                String voters,
                Path home,
                short replication,
                String minIsr) {
            String rf = Short.toString(replication);
            Map<String, String> p = new LinkedHashMap<>();
            p.put("process.roles", "broker,controller");
            p.put("node.id", Integer.toString(id));
            p.put(
                    "listeners",
                    "PLAINTEXT://" + host + ":" + brokerPort + ",CONTROLLER://" + host + ":" + controllerPort);
            p.put("advertised.listeners", "PLAINTEXT://" + host + ":" + brokerPort);
            p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            p.put("inter.broker.listener.name", "PLAINTEXT");
            p.put("controller.listener.names", "CONTROLLER");
            // A static quorum: every node votes, and a restarted node finds the others by it.
            p.put("controller.quorum.voters", voters);
            p.put("log.dirs", home.resolve("data").toString());
            p.put("num.partitions", "1");
            p.put("default.replication.factor", rf);
            p.put("min.insync.replicas", minIsr);
            p.put("unclean.leader.election.enable", "false");
            p.put("offsets.topic.replication.factor", rf);
            p.put("offsets.topic.num.partitions", "3");
            p.put("transaction.state.log.replication.factor", rf);
            p.put("transaction.state.log.min.isr", minIsr);
            p.put("transaction.state.log.num.partitions", "3");
            p.put("share.coordinator.state.topic.replication.factor", rf);
            p.put("share.coordinator.state.topic.min.isr", minIsr);
            p.put("share.coordinator.state.topic.num.partitions", "1");
            p.put("group.initial.rebalance.delay.ms", "0");
            return p;
        }
    }
}
