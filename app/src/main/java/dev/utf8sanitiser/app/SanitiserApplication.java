package dev.utf8sanitiser.app;

import dev.utf8sanitiser.app.console.Console;
import dev.utf8sanitiser.app.http.HttpLimits;
import dev.utf8sanitiser.app.topology.SanitiserTopology;
import dev.utf8sanitiser.app.transactions.HangingTransactionMonitor;
import dev.utf8sanitiser.config.FatalErrorResponse;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.VectorSupport;
import dev.utf8sanitiser.registry.RegistryMisconfiguredException;
import dev.utf8sanitiser.registry.RegistryUnavailableException;
import dev.utf8sanitiser.registry.RestSchemaRegistry;
import dev.utf8sanitiser.registry.SchemaRegistryOwner;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import dev.utf8sanitiser.streams.DeadLetterBreakerOpenException;
import dev.utf8sanitiser.streams.SizeLimits;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running sanitiser: Kafka Streams with the sanitiser topology, the topics it writes, and the
 * health server. It stops on {@link #close()} (what SIGTERM triggers) after committing, or by
 * itself on a fatal error; {@link #awaitStop()} tells which.
 *
 * <p>Failures are never misfiled as bad data: the topology sends to the dead-letter topic only
 * records it judged; a broker failure surfaces as an exception in Kafka Streams, whose clients
 * retry what is retriable, and anything else ends here in the uncaught-exception handler, which
 * shuts the client down (the default), replaces the thread or shuts the whole application down, as
 * {@code sanitiser.on.fatal.error} says.
 *
 * <p>Start-up waits for the Kafka cluster within {@code sanitiser.startup.timeout.ms}: a cluster
 * that does not answer stops it with {@link ClusterUnreachableException}, which names {@code
 * bootstrap.servers}. While it runs, {@link ClusterMonitor} says when the cluster is lost and back,
 * and {@code /health/ready} answers 503 in between. {@link #stop()} leaves the consumer group, so
 * that the partitions move at once rather than after {@code session.timeout.ms}.
 *
 * <p>For Avro values the Schema Registry is checked once before anything starts ({@link
 * RestSchemaRegistry#probe()}): a wrong URL, refused credentials or a TLS mistake stop start-up with
 * {@link RegistryMisconfiguredException}; a registry that cannot be reached within the retry budget
 * stops it with {@link RegistryUnavailableException}, as the first record would stop the stream
 * thread, unless {@code sanitiser.on.fatal.error=replace_thread}, under which the threads wait for
 * it.
 */
public final class SanitiserApplication implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SanitiserApplication.class);

    private static final String GLOBAL_PROCESSING_HANDLER = "processing.exception.handler.global.enabled";

    private final KafkaStreams streams;
    private final HealthServer health;
    private final Optional<String> consoleAddress; // where the DLQ console answers, when it is on
    private final SchemaRegistryOwner registry; // opened for Avro values only
    private final HangingTransactionMonitor transactions;
    private final ClusterMonitor cluster;
    private final PartitionMonitor partitions;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Duration shutdownTimeout;
    private final GroupMembershipOperation onClose;
    private final BreakerTrips trips = new BreakerTrips();
    private final AbortedCommits abortedCommits = new AbortedCommits(Clock.systemUTC());
    private volatile boolean failed;
    private Boolean closedInTime; // guarded by this; null until stop()

    private SanitiserApplication(
            SanitiserConfig config,
            Map<String, Object> streamsProperties,
            SizeLimits limits,
            SchemaRegistryOwner registry)
            throws IOException {
        Properties properties = kafkaStreamsProperties(streamsProperties);
        this.shutdownTimeout = config.shutdownTimeout();
        // A static member (group.instance.id) keeps its place, so that it gets its partitions back
        // when it returns within the session timeout; any other leaves the group when it stops.
        this.onClose = isStaticMember(streamsProperties)
                ? GroupMembershipOperation.REMAIN_IN_GROUP
                : GroupMembershipOperation.LEAVE_GROUP;
        // A registry that cannot answer throws out of the sanitise processor: the stream thread
        // stops (sanitiser.on.fatal.error) and the record is read again later, never dead-lettered.
        this.registry = registry;
        ValueFormat format = ValueFormats.of(config, registry);
        this.streams = new KafkaStreams(SanitiserTopology.build(config, format, limits), properties);
        StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse response =
                StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.valueOf(
                        config.onFatalError().name());
        streams.setUncaughtExceptionHandler(exception -> {
            Optional<DeadLetterBreakerOpenException> open = DeadLetterBreakerOpenException.in(exception);
            if (open.isPresent()) {
                // The thread's transaction is aborted: the record that tripped it, and those since
                // the last commit, are read again after a restart. The instance pauses rather than
                // stops, so that readiness and the gauge say why; a new thread keeps its partitions.
                streams.pause();
                if (trips.trip(open.get())) {
                    LOG.error(
                            "{}: processing paused; restart to resume (docs/operations.md)",
                            open.get().getMessage());
                }
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
            }
            if (abortedCommits.replace(exception)) {
                LOG.warn(
                        "a stream thread's commit failed because the transaction coordinator had already aborted"
                                + " its transaction ({}); nothing of it was committed, and a new stream thread resumes"
                                + " from the last commit",
                        exception.toString());
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
            }
            LOG.error("fatal error in a stream thread ({}): {}", response, exception.toString(), exception);
            if (response != StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD) {
                failed = true;
            }
            return response;
        });
        streams.setStateListener((now, before) -> {
            LOG.info("state {} -> {}", before, now);
            if (now == KafkaStreams.State.ERROR) {
                failed = true;
                stopped.countDown();
            } else if (now == KafkaStreams.State.NOT_RUNNING) {
                stopped.countDown();
            }
        });
        this.transactions = HangingTransactionMonitor.start(config, adminProperties(streamsProperties));
        this.cluster = ClusterMonitor.start(adminProperties(streamsProperties), bootstrapServers(streamsProperties));
        this.partitions = PartitionMonitor.start(config, adminProperties(streamsProperties));
        Optional<Console> console = Optional.empty();
        try {
            if (config.httpPort().isPresent() && config.console().enabled()) {
                console = Optional.of(
                        Console.open(config, adminProperties(streamsProperties), List.of(), Clock.systemUTC()));
            }
            this.health = config.httpPort().isPresent()
                    ? HealthServer.start(
                            streams,
                            transactions,
                            cluster,
                            partitions,
                            trips,
                            config.inputTopics(),
                            config.httpPort().getAsInt(),
                            console,
                            HttpLimits.DEFAULT)
                    : null;
        } catch (IOException | RuntimeException e) {
            console.ifPresent(Console::close);
            partitions.close();
            cluster.close();
            transactions.close();
            throw e;
        }
        this.consoleAddress = console.map(c -> config.console().address());
    }

    /**
     * Provisions the topics and starts processing.
     *
     * @param createInputs create missing input topics too (the embedded broker only)
     */
    public static SanitiserApplication start(SanitiserConfig config, boolean createInputs)
            throws IOException, ExecutionException, InterruptedException {
        Map<String, Object> streamsProperties = config.streamsProperties();
        SchemaRegistryOwner registry = new SchemaRegistryOwner(config, client -> checkAtStart(client, config));
        SanitiserApplication app;
        try {
            if (config.payloadFormat().needsSchemaRegistry()) {
                registry.get(); // opened and checked before anything starts
            }
            Map<String, Integer> topicLimits = awaitClusterAndProvision(config, streamsProperties, createInputs);
            SizeLimits limits = SizeLimits.forTopics(streamsProperties, topicLimits);
            app = new SanitiserApplication(config, streamsProperties, limits, registry);
        } catch (IOException | ExecutionException | InterruptedException | RuntimeException e) {
            registry.close();
            throw e;
        }
        app.streams.start();
        LOG.info(
                "sanitising {} with policy {} ({}, {} validation){}{}",
                config.inputPattern().map(p -> "topics matching " + p).orElse(String.join(",", config.inputTopics())),
                config.policy(),
                streamsProperties.get("processing.guarantee"),
                VectorSupport.describe(),
                app.health == null ? "" : ", health and metrics on port " + app.health.port(),
                app.consoleAddress
                        .map(address ->
                                ", DLQ console on http://" + (address.contains(":") ? "[" + address + "]" : address)
                                        + ":" + app.health.port() + "/console/")
                        .orElse(""));
        return app;
    }

    /**
     * Waits for a broker to answer, then creates the missing output and dead-letter topics; each
     * within {@code sanitiser.startup.timeout.ms}. An interrupt (a stop requested meanwhile) ends
     * either wait at once.
     *
     * @throws ClusterUnreachableException no broker answered in time
     */
    private static Map<String, Integer> awaitClusterAndProvision(
            SanitiserConfig config, Map<String, Object> streamsProperties, boolean createInputs)
            throws ExecutionException, InterruptedException {
        Duration timeout = config.startupTimeout();
        String bootstrap = bootstrapServers(streamsProperties);
        Admin admin = createAdmin(startupAdminProperties(streamsProperties, timeout), bootstrap);
        try {
            LOG.info(
                    "connecting to the Kafka cluster at {} (sanitiser.startup.timeout.ms={})",
                    bootstrap,
                    timeout.toMillis());
            try {
                new ClusterProbe(admin).probe(timeout);
            } catch (TimeoutException e) {
                throw new ClusterUnreachableException(
                        "cannot reach the Kafka cluster at " + bootstrap + " (bootstrap.servers) within "
                                + ClusterProbe.seconds(timeout) + " (sanitiser.startup.timeout.ms): no broker answered",
                        e);
            }
            try {
                return TopicProvisioner.provision(admin, config, createInputs);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TimeoutException) {
                    throw new ClusterUnreachableException(
                            "the Kafka cluster at " + bootstrap + " (bootstrap.servers) stopped answering while the"
                                    + " output and dead-letter topics were set up: "
                                    + e.getCause().getMessage()
                                    + " (sanitiser.startup.timeout.ms=" + timeout.toMillis() + ")",
                            e);
                }
                throw e;
            }
        } finally {
            // Nothing is pending unless start-up failed or was interrupted: then drop it at once.
            admin.close(Duration.ZERO);
        }
    }

    /**
     * An Admin client, or why {@code bootstrap.servers} cannot give one in one line: Kafka's clients
     * refuse to start when no name in it resolves, and say only "Failed to create new
     * KafkaAdminClient".
     *
     * @throws ClusterUnreachableException no name resolves (DNS may not know it yet: exit 1, retried)
     * @throws ConfigException {@code bootstrap.servers} is not a list of host:port
     */
    private static Admin createAdmin(Properties properties, String bootstrap) {
        try {
            return Admin.create(properties);
        } catch (KafkaException e) {
            if (!(e.getCause() instanceof ConfigException cause)) {
                throw e;
            }
            if (cause.getMessage() != null && cause.getMessage().startsWith("No resolvable bootstrap urls")) {
                throw new ClusterUnreachableException(
                        "cannot reach the Kafka cluster at " + bootstrap + " (bootstrap.servers): no host name in it"
                                + " resolves (DNS)",
                        e);
            }
            throw new ConfigException("bootstrap.servers " + bootstrap + ": " + cause.getMessage());
        }
    }

    /** {@link #adminProperties}, each call bounded by the start-up timeout unless the admin keys say otherwise. */
    private static Properties startupAdminProperties(Map<String, Object> streamsProperties, Duration timeout) {
        Properties admin = adminProperties(streamsProperties);
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        admin.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        // Kafka's Admin raises the API timeout to the request timeout (30 s) when that is longer.
        admin.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(millis, 30_000));
        return admin;
    }

    /** What Kafka Streams is given: {@code streamsProperties} and the settings below. */
    static Properties kafkaStreamsProperties(Map<String, Object> streamsProperties) {
        Properties properties = new Properties();
        properties.putAll(streamsProperties);
        // Kafka 4.3 warns each time it builds a Streams configuration without this; it becomes
        // the default in 5.0 and is harmless here (the topology has no global state). The
        // partition assignor builds one of its own from the main consumer's settings, which carry
        // no Streams keys but those under main.consumer., so it goes there too.
        properties.putIfAbsent(GLOBAL_PROCESSING_HANDLER, "true");
        properties.putIfAbsent(
                StreamsConfig.mainConsumerPrefix(GLOBAL_PROCESSING_HANDLER), properties.get(GLOBAL_PROCESSING_HANDLER));
        return properties;
    }

    private static String bootstrapServers(Map<String, Object> streamsProperties) {
        return String.valueOf(streamsProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    }

    private static boolean isStaticMember(Map<String, Object> streamsProperties) {
        return Stream.of("", "consumer.", "main.consumer.")
                .anyMatch(prefix -> streamsProperties.get(prefix + ConsumerConfig.GROUP_INSTANCE_ID_CONFIG) != null);
    }

    /**
     * The start-up check of the registry client, as the class comment says.
     *
     * @throws RegistryMisconfiguredException the URL, the credentials or the TLS settings are wrong
     * @throws RegistryUnavailableException the registry cannot be reached within the retry budget,
     *     and {@code sanitiser.on.fatal.error} is not {@code replace_thread}
     */
    private static void checkAtStart(RestSchemaRegistry registry, SanitiserConfig config) {
        try {
            registry.probe();
        } catch (RegistryUnavailableException e) {
            if (config.onFatalError() != FatalErrorResponse.REPLACE_THREAD) {
                throw e;
            }
            LOG.warn(
                    "{}; starting all the same: under sanitiser.on.fatal.error=replace_thread the stream threads"
                            + " wait for the registry",
                    e.getMessage());
        }
    }

    /** The client settings of {@code streamsProperties} (bootstrap and security) for an Admin client. */
    public static Properties adminProperties(Map<String, Object> streamsProperties) {
        // The client settings (bootstrap and security) that an Admin client understands.
        Properties admin = new Properties();
        streamsProperties.forEach((key, value) -> {
            if (key.equals("bootstrap.servers")
                    || key.startsWith("security.")
                    || key.startsWith("sasl.")
                    || key.startsWith("ssl.")
                    || key.startsWith("admin.")) {
                admin.put(key.startsWith("admin.") ? key.substring(6) : key, value);
            }
        });
        return admin;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** The port of the health server, or -1 when it is off. */
    public int healthPort() {
        return health == null ? -1 : health.port();
    }

    /** Whether Kafka Streams has stopped by itself (fatal error) or been closed. */
    public boolean isStopped() {
        return stopped.getCount() == 0;
    }

    /** Whether it stopped on a fatal error. */
    public boolean failed() {
        return failed;
    }

    /** Blocks until the application stops; true when it stopped on a fatal error. */
    public boolean awaitStop() throws InterruptedException {
        stopped.await();
        return failed;
    }

    /**
     * Commits, leaves the consumer group (see the class comment) and closes Kafka Streams within
     * {@code sanitiser.shutdown.timeout.ms}, then the health server and the monitors. Once: a later
     * call returns the first answer at once.
     *
     * @return whether Kafka Streams closed in time; if not, what it read since its last commit is
     *     not committed, and is read again on the next start
     */
    public synchronized boolean stop() {
        if (closedInTime != null) {
            return closedInTime;
        }
        FencedAtStop.install();
        boolean closed =
                streams.close(CloseOptions.groupMembershipOperation(onClose).withTimeout(shutdownTimeout));
        if (!closed) {
            LOG.error(
                    "Kafka Streams did not close within {} ms (sanitiser.shutdown.timeout.ms): what it read since"
                            + " its last commit is not committed and is read again on the next start",
                    shutdownTimeout.toMillis());
        }
        if (health != null) {
            health.close();
        }
        partitions.close();
        cluster.close();
        transactions.close();
        registry.close();
        closedInTime = closed;
        stopped.countDown();
        return closed;
    }

    /** {@link #stop()}, for try-with-resources. */
    @Override
    public void close() {
        stop();
    }
}
