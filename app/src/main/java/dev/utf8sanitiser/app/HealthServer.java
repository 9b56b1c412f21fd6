package dev.utf8sanitiser.app;

import dev.utf8sanitiser.app.console.Console;
import dev.utf8sanitiser.app.console.ConsoleServer;
import dev.utf8sanitiser.app.http.Endpoint;
import dev.utf8sanitiser.app.http.HttpLimits;
import dev.utf8sanitiser.app.http.HttpPort;
import dev.utf8sanitiser.app.http.Reply;
import dev.utf8sanitiser.app.transactions.HangingTransaction;
import dev.utf8sanitiser.app.transactions.HangingTransactionMonitor;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.eclipse.jetty.server.Handler;

/**
 * Liveness, readiness and Prometheus metrics over HTTP, on every interface ({@link HttpPort}, which
 * says what a client may hold). The probes answer from memory, to any {@code Host} (Kubernetes and
 * Prometheus send the pod's address), GET or HEAD only:
 *
 * <ul>
 *   <li>{@code /health/live}: 200 unless Kafka Streams is in ERROR or has stopped;
 *   <li>{@code /health/ready}: 200 only while it is RUNNING (not rebalancing or starting), the
 *       Kafka cluster answers ({@link ClusterMonitor}) and every output and dead-letter partition has
 *       a leader and {@code min.insync.replicas} in-sync replicas ({@link PartitionMonitor}): ready
 *       means records can go through now. Else 503, with the reasons on the next lines;
 *   <li>{@code /health}: 200 {@code UP} and the state, or 503 {@code DEGRADED} with one line per
 *       hanging transaction on an output or dead-letter topic (a restart does not clear one, so
 *       liveness leaves it alone);
 *   <li>{@code /metrics}: every Kafka Streams metric, the sanitiser's sensors included, and {@code
 *       utf8_sanitiser_hanging_transactions}, {@code utf8_sanitiser_partitions_*}, in the Prometheus text format (Micrometer's {@link
 *       KafkaStreamsMetrics} binder), and the JVM's and the process's (memory, GC, threads, classes,
 *       CPU, uptime, file descriptors);
 *   <li>{@code /console}: the DLQ console, when {@code sanitiser.console.enabled} ({@link Console}).
 * </ul>
 */
final class HealthServer implements AutoCloseable {
    static final String HEALTH = "/health";
    static final String LIVE = "/health/live";
    static final String READY = "/health/ready";
    static final String METRICS = "/metrics";

    private final HttpPort server;
    private final KafkaStreamsMetrics binder;
    private final JvmGcMetrics gc;
    private final MetricsRefresh refresh;
    private final Optional<Console> console;

    private HealthServer(
            HttpPort server,
            KafkaStreamsMetrics binder,
            JvmGcMetrics gc,
            MetricsRefresh refresh,
            Optional<Console> console) {
        this.server = server;
        this.binder = binder;
        this.gc = gc;
        this.refresh = refresh;
        this.console = console;
    }

    /** @param console served under {@code /console} too, and closed with the server */
    static HealthServer start(
            KafkaStreams streams,
            HangingTransactionMonitor transactions,
            ClusterMonitor cluster,
            PartitionMonitor partitions,
            int port,
            Optional<Console> console)
            throws IOException {
        return start(streams, transactions, cluster, partitions, port, console, HttpLimits.DEFAULT);
    }

    static HealthServer start(
            KafkaStreams streams,
            HangingTransactionMonitor transactions,
            ClusterMonitor cluster,
            PartitionMonitor partitions,
            int port,
            Optional<Console> console,
            HttpLimits limits)
            throws IOException {
        return start(streams, transactions, cluster, partitions, new BreakerTrips(), List.of(), port, console, limits);
    }

    /**
     * @param trips the input topics whose dead-letter circuit breaker tripped: not ready
     * @param inputTopics the listed input topics, whose breaker gauge starts at 0
     */
    static HealthServer start(
            KafkaStreams streams,
            HangingTransactionMonitor transactions,
            ClusterMonitor cluster,
            PartitionMonitor partitions,
            BreakerTrips trips,
            List<String> inputTopics,
            int port,
            Optional<Console> console,
            HttpLimits limits)
            throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MetricsRefresh refresh = new MetricsRefresh();
        KafkaStreamsMetrics binder = new KafkaStreamsMetrics(streams, Tags.empty(), refresh);
        binder.bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        Gauge.builder("utf8.sanitiser.hanging.transactions", transactions, t -> t.hanging()
                        .size())
                .description("Open transactions holding an output or dead-letter partition's last stable offset"
                        + " for longer than the transaction timeout")
                .register(registry);
        Gauge.builder("utf8.sanitiser.ready", () -> ready(streams, cluster, partitions, trips) ? 1 : 0)
                .description("1 while /health/ready answers 200: Kafka Streams is RUNNING, the Kafka cluster"
                        + " answers, every output and dead-letter partition can take writes and no dead-letter"
                        + " circuit breaker is open; else 0")
                .register(registry);
        inputTopics.forEach(topic -> breakerGauge(registry, trips, topic));
        Gauge.builder("utf8.sanitiser.partitions.leaderless", partitions, p -> p.report()
                        .leaderless()
                        .size())
                .description("Output and dead-letter partitions without a leader")
                .register(registry);
        Gauge.builder("utf8.sanitiser.partitions.under.min.isr", partitions, p -> p.report()
                        .underMinIsr()
                        .size())
                .description("Output and dead-letter partitions with a leader but fewer in-sync replicas than"
                        + " min.insync.replicas")
                .register(registry);
        Gauge.builder("utf8.sanitiser.partitions.under.replicated", partitions, p -> p.report()
                        .underReplicated()
                        .size())
                .description("Output and dead-letter partitions with enough in-sync replicas, but fewer than"
                        + " their replicas")
                .register(registry);
        Map<String, Handler> routes = new LinkedHashMap<>();
        routes.put(HEALTH, Endpoint.probe(() -> {
            List<HangingTransaction> hanging = transactions.hanging();
            StringBuilder body = new StringBuilder();
            body.append(hanging.isEmpty() ? "UP " : "DEGRADED ")
                    .append(streams.state())
                    .append('\n');
            for (HangingTransaction transaction : hanging) {
                body.append("hanging transaction: ")
                        .append(transaction.describe())
                        .append('\n');
            }
            return Reply.text(hanging.isEmpty() ? 200 : 503, body.toString());
        }));
        routes.put(LIVE, Endpoint.probe(() -> {
            KafkaStreams.State state = streams.state();
            boolean alive = state != KafkaStreams.State.ERROR && state != KafkaStreams.State.NOT_RUNNING;
            return Reply.text(alive ? 200 : 503, state.name() + "\n");
        }));
        routes.put(READY, Endpoint.probe(() -> {
            KafkaStreams.State state = streams.state();
            Optional<String> unreachable = cluster.unreachable();
            Optional<String> unwritable = partitions.unwritable();
            boolean ready = state == KafkaStreams.State.RUNNING
                    && unreachable.isEmpty()
                    && unwritable.isEmpty()
                    && !trips.anyOpen(); // as ready()
            StringBuilder body = new StringBuilder(state.name()).append('\n');
            unreachable.ifPresent(reason -> body.append(reason).append('\n'));
            unwritable.ifPresent(reason -> body.append(reason).append('\n'));
            trips.reasons().forEach(reason -> body.append(reason).append("; restart to resume\n"));
            return Reply.text(ready ? 200 : 503, body.toString());
        }));
        routes.put(
                METRICS,
                HttpPort.limited(
                        Endpoint.blocking(() -> {
                            // A topic met through a pattern gets its gauge when its breaker trips.
                            trips.topics().forEach(topic -> breakerGauge(registry, trips, topic));
                            return new Reply(
                                    200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape(), Map.of());
                        }),
                        limits));
        // The console's pages may wait on Kafka: they run a few at once, leaving the probes threads.
        console.ifPresent(c -> routes.put(ConsoleServer.PATHS, ConsoleServer.handler(c, limits)));
        HttpPort server = HttpPort.start(Optional.empty(), port, limits, routes);
        return new HealthServer(server, binder, gc, refresh, console);
    }

    private static boolean ready(
            KafkaStreams streams, ClusterMonitor cluster, PartitionMonitor partitions, BreakerTrips trips) {
        return streams.state() == KafkaStreams.State.RUNNING
                && cluster.unreachable().isEmpty()
                && partitions.unwritable().isEmpty()
                && !trips.anyOpen();
    }

    /** {@code utf8_sanitiser_circuit_breaker_open{topic}}: registered once, found again after. */
    private static void breakerGauge(PrometheusMeterRegistry registry, BreakerTrips trips, String topic) {
        Gauge.builder("utf8.sanitiser.circuit.breaker.open", trips, t -> t.isOpen(topic) ? 1 : 0)
                .description("1 once the dead-letter circuit breaker of the input topic tripped and this instance"
                        + " paused, until it restarts; else 0")
                .tag("topic", topic)
                .register(registry);
    }

    int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.close();
        console.ifPresent(Console::close);
        binder.close();
        gc.close();
        refresh.shutdownNow();
    }
}
