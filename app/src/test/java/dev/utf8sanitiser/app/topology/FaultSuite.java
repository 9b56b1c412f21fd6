package dev.utf8sanitiser.app.topology;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.cli.ChildCli;
import dev.utf8sanitiser.app.transactions.HangingTransaction;
import dev.utf8sanitiser.app.transactions.HangingTransactionFinder;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once under faults (docs/reliability.md): records with unique keys, one in a hundred
 * ill-formed, written at a steady rate to 3 partitions while {@code run} (a child JVM) is killed,
 * the broker is bounced, the sanitiser is stopped while the broker is away, and a second instance
 * joins. Read back with {@code read_committed}, every key is in the clean or the dead-letter topic
 * exactly once, in the right one, the dead letters byte-exact with their {@code __utf8.*} headers.
 * Each test prints its verdict with the time to recover from each fault and the longest stall
 * (the longest gap between output records). The input is read back at the end, so a record the
 * writer wrote twice while the broker was away (an input duplicate) is told apart from one the
 * sanitiser delivered twice (an output duplicate).
 *
 * <p>The faults are in two classes, so that failsafe's forks can run them side by side: {@link
 * SanitiserFaultIT} (the sanitiser killed, rebalanced, at-least-once, the registry away) on the
 * fork's shared broker, and {@link BrokerFaultIT} (the broker bounced or away) on a broker of its
 * own. Their short forms run in {@code verify}; the long forms, tagged {@code slow}, with {@code
 * -Pslow}.
 */
abstract class FaultSuite {
    static final int SHORT = 20_000;
    static final int LONG = 200_000;
    private static final int PARTITIONS = 3;
    private static final Duration BROKER_DOWN = Duration.ofSeconds(12);
    /** How long the writer takes for the short form's records; the long form, at the same rate. */
    private static final Duration WRITE_TIME = Duration.ofSeconds(25);
    /** Retried within the sanitiser's registry retry timeout, which the test sets to 15 s. */
    private static final Duration REGISTRY_DOWN_SHORT = Duration.ofSeconds(8);
    /** Longer than that timeout: the sanitiser stops (exit 1) and is started again. */
    private static final Duration REGISTRY_DOWN_LONG = Duration.ofSeconds(25);
    /** How long after a fault the output must resume. */
    private static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(180);
    /** After this long without output, and again each time it passes, the test looks for hanging transactions. */
    private static final Duration HANGING_CHECK_AFTER = Duration.ofSeconds(60);

    /** The broker of the class that runs: the fork's shared one, or one of its own for broker faults. */
    static EmbeddedKafka kafka;

    static TestSchemaRegistry registry;

    @TempDir
    Path dir;

    /** Starts the registry; the broker is {@code broker}. */
    static void startWith(EmbeddedKafka broker) {
        kafka = broker;
        registry = TestSchemaRegistry.start();
    }

    /** Stops the registry, and the broker too if the class started one of its own. */
    static void stop(boolean ownBroker) {
        if (registry != null) {
            registry.close();
            registry = null;
        }
        if (ownBroker && kafka != null) {
            kafka.close();
        }
        kafka = null;
    }

    void hardKills(String name, int records, int kills) throws Exception {
        kills(name, records, kills, "exactly_once_v2");
    }

    /** SIGKILLs of the sanitiser, each followed by a new instance, under {@code guarantee}. */
    private void kills(String name, int records, int kills, String guarantee) throws Exception {
        try (Run run = new Run(name, records, guarantee)) {
            Process sanitiser = run.startSanitiser();
            for (int k = 1; k <= kills; k++) {
                run.awaitOutput(run.randomPoint(k, kills));
                sanitiser.destroyForcibly().waitFor();
                long fault = System.nanoTime();
                sanitiser = run.startSanitiser();
                run.recovered(fault, "SIGKILL " + k);
            }
            run.finish(sanitiser);
        }
    }

    void brokerBounces(String name, int records, int rounds) throws Exception {
        try (Run run = new Run(name, records, "exactly_once_v2")) {
            Process sanitiser = run.startSanitiser();
            for (int k = 1; k <= 2 * rounds; k++) {
                boolean hard = k % 2 == 0;
                run.awaitOutput(run.randomPoint(k, 2 * rounds));
                kafka.stopBroker(hard);
                long fault = System.nanoTime();
                Thread.sleep(BROKER_DOWN.toMillis());
                kafka.restart();
                sanitiser =
                        run.recoveredSupervising(fault, "broker " + (hard ? "SIGKILL " : "SIGTERM ") + k, sanitiser);
            }
            run.finish(sanitiser);
        }
    }

    void stopWhileBrokerDown(String name, int records, int rounds) throws Exception {
        try (Run run = new Run(name, records, "exactly_once_v2")) {
            Process sanitiser = run.startSanitiser();
            for (int k = 1; k <= rounds; k++) {
                run.awaitOutput(run.randomPoint(k, rounds));
                kafka.stopBroker(true);
                long fault = System.nanoTime();
                sanitiser.destroy();
                boolean exited = sanitiser.waitFor(90, TimeUnit.SECONDS);
                run.report("SIGTERM with the broker down " + k + ": "
                        + (exited ? "exit " + sanitiser.exitValue() : "still running after 90 s") + " after "
                        + millisSince(fault) + " ms");
                assertThat(exited)
                        .as("the sanitiser stops on SIGTERM with the broker down")
                        .isTrue();
                long remaining = BROKER_DOWN.toMillis() - millisSince(fault);
                if (remaining > 0) {
                    Thread.sleep(remaining);
                }
                kafka.restart();
                sanitiser = run.startSanitiser();
                run.recovered(fault, "SIGTERM with the broker down " + k);
            }
            run.finish(sanitiser);
        }
    }

    void rebalances(String name, int records, int rounds) throws Exception {
        try (Run run = new Run(name, records, "exactly_once_v2")) {
            Process first = run.startSanitiser();
            for (int k = 1; k <= rounds; k++) {
                run.awaitOutput(run.randomPoint(2 * k - 1, 2 * rounds));
                Process second = run.startSanitiser();
                long joined = System.nanoTime();
                run.recovered(joined, "second instance joins " + k);
                run.awaitOutput(run.randomPoint(2 * k, 2 * rounds));
                first.destroy();
                long left = System.nanoTime();
                assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
                run.recovered(left, "first instance leaves (SIGTERM) " + k);
                first = second;
            }
            run.finish(first);
        }
    }

    void atLeastOnce(String name, int records, int kills) throws Exception {
        kills(name, records, kills, "at_least_once");
    }

    /**
     * Avro records whose writer schemas are met one after the other through the run, so that the
     * sanitiser must ask the registry for new ones while it is away. Each round stops the registry
     * twice: for less than the sanitiser's retry timeout (it waits, then goes on) and for longer (it
     * stops with exit 1, never dead-lettering for it, and is started again once the registry is back).
     */
    void registryOutages(String name, int records, int rounds) throws Exception {
        try (Run run = new Run(name, records, "exactly_once_v2", new AvroPayloads("fault-" + name, 40))) {
            Process sanitiser = run.startSanitiser();
            for (int k = 1; k <= 2 * rounds; k++) {
                Duration down = k % 2 == 1 ? REGISTRY_DOWN_SHORT : REGISTRY_DOWN_LONG;
                run.awaitOutput(run.randomPoint(k, 2 * rounds));
                registry.stop();
                long fault = System.nanoTime();
                Thread.sleep(down.toMillis());
                registry.restart();
                // Records of schemas already looked up flow on while the registry is away, so the
                // recovery counts from its return; the stall it caused shows as the longest stall.
                long back = System.nanoTime();
                sanitiser = run.recoveredSupervising(
                        back, "registry back after " + down.toSeconds() + " s away, " + k, sanitiser);
            }
            run.finish(sanitiser);
        }
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    /** The value of text record {@code i}: one in a hundred ill-formed (a CESU-8 surrogate), and unique. */
    static byte[] value(int i) {
        byte[] text = ("record " + i + " Grüße").getBytes(UTF_8);
        if (i % 100 != 0) {
            return text;
        }
        byte[] bad = Arrays.copyOf(text, text.length + 3);
        bad[text.length] = (byte) 0xED;
        bad[text.length + 1] = (byte) 0xA0;
        bad[text.length + 2] = (byte) 0x80;
        return bad;
    }

    /** One run: its topics, the writer, the reader that accounts, and the sanitisers started. */
    private final class Run implements AutoCloseable {
        private final String name;
        private final int records;
        private final boolean exactlyOnce;
        private final String in;
        private final Path config;
        private final Random random;
        private final IntFunction<byte[]> values;
        private final FaultInputWriter writer;
        private final Reader reader;
        private final List<Process> started = new ArrayList<>();
        private final List<String> lines = new ArrayList<>();
        private final long startNanos = System.nanoTime();
        private long longestRecovery;
        private int hangingAborted;
        private long lastHangingCheck = startNanos;

        Run(String name, int records, String guarantee) throws IOException {
            this(name, records, guarantee, null);
        }

        /** With {@code avro} null, text records; else Avro records with the writer schemas it registers. */
        Run(String name, int records, String guarantee, AvroPayloads avro) throws IOException {
            this.name = name;
            this.values = avro == null ? FaultSuite::value : i -> avro.value(i, records);
            this.records = records;
            this.exactlyOnce = guarantee.startsWith("exactly_once");
            this.in = SharedKafka.unique("fault-" + name);
            long seed = System.nanoTime();
            this.random = new Random(seed);
            report("seed " + seed + ", " + records + " records, " + guarantee);
            kafka.createTopics(PARTITIONS, in, in + ".clean", in + ".dlq");
            config = dir.resolve(name + ".properties");
            Files.writeString(
                    config,
                    String.join(
                            "\n",
                            "application.id=" + in,
                            "bootstrap.servers=" + kafka.bootstrapServers(),
                            "sanitiser.input.topics=" + in,
                            "sanitiser.http.port=-1",
                            "processing.guarantee=" + guarantee,
                            "replication.factor=1",
                            "commit.interval.ms=100",
                            "max.poll.records=500",
                            "consumer.auto.offset.reset=earliest",
                            "consumer.session.timeout.ms=6000",
                            // A SIGTERM with the broker away cannot commit; stop waiting for it
                            // after 10 s rather than the default, so the test stays short.
                            "sanitiser.shutdown.timeout.ms=10000",
                            avro == null ? "" : "sanitiser.payload.format=avro",
                            avro == null ? "" : "schema.registry.url=" + registry.url(),
                            // A registry away for longer than this stops the sanitiser (exit 1).
                            avro == null ? "" : "sanitiser.registry.retry.timeout.ms=15000",
                            ""));
            if (avro != null) {
                avro.register(registry);
            }
            reader = new Reader(in, values);
            writer = new FaultInputWriter(
                    kafka.producerConfig(),
                    in,
                    records,
                    WRITE_TIME.multipliedBy(records / SHORT),
                    FaultSuite::key,
                    values);
        }

        /** A point to fault at, in the output count: the k-th of n slices, somewhere in its middle. */
        int randomPoint(int k, int n) {
            double slice = 0.8 / n;
            double at = 0.05 + slice * (k - 1) + slice * (0.25 + 0.5 * random.nextDouble());
            return (int) (records * at);
        }

        Process startSanitiser() throws IOException {
            Process process = new ProcessBuilder(
                            ChildCli.command(List.of("-Xmx384m"), "run", "--config", config.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(logOf(started.size()).toFile())
                    .start();
            started.add(process);
            return process;
        }

        void awaitOutput(int count) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            while (reader.total() < count && System.nanoTime() < deadline) {
                pause(50, "waiting for " + count + " output records");
            }
            assertThat(reader.total()).as(name + ": output reached " + count).isGreaterThanOrEqualTo(count);
        }

        /**
         * Sleeps, and when no output has come for {@link #HANGING_CHECK_AFTER}, looks for hanging
         * transactions (at most once in that time).
         */
        private void pause(long millis, String during) throws Exception {
            sleep(millis);
            long now = System.nanoTime();
            long quietSince = reader.total() == 0 ? startNanos : reader.lastArrival();
            if (now - quietSince > HANGING_CHECK_AFTER.toNanos()
                    && now - lastHangingCheck > HANGING_CHECK_AFTER.toNanos()) {
                lastHangingCheck = now;
                abortHangingTransactions(during);
            }
        }

        /** Waits for the first output record after the fault and reports the time it took. */
        void recovered(long faultNanos, String fault) throws Exception {
            awaitRecovery(faultNanos, fault, null);
        }

        /**
         * As {@link #recovered}, and starts the sanitiser again whenever it exits meanwhile, as its
         * supervisor (Kubernetes, systemd) would: a transient fault may stop it with exit 1
         * (docs/operations.md). Returns the sanitiser running at the end.
         */
        Process recoveredSupervising(long faultNanos, String fault, Process sanitiser) throws Exception {
            return awaitRecovery(faultNanos, fault, sanitiser);
        }

        private Process awaitRecovery(long faultNanos, String fault, Process supervised) throws Exception {
            long deadline = System.nanoTime() + RECOVERY_TIMEOUT.toNanos();
            while (!resumedSince(faultNanos) && System.nanoTime() < deadline) {
                if (supervised != null && !supervised.isAlive()) {
                    report("the sanitiser exited " + supervised.exitValue() + " during the fault; started again");
                    supervised = startSanitiser();
                }
                pause(20, "recovering from " + fault);
            }
            if (!resumedSince(faultNanos)) {
                throw new AssertionError(name + ": output did not resume within " + RECOVERY_TIMEOUT.toSeconds()
                        + " s after " + fault + "\n" + diagnosis());
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(Math.max(0, reader.lastArrival() - faultNanos));
            longestRecovery = Math.max(longestRecovery, millis);
            report(fault + ": output resumed " + millis + " ms after the fault");
            return supervised;
        }

        private boolean resumedSince(long faultNanos) {
            return reader.lastArrival() >= faultNanos || reader.total() >= records;
        }

        /** Plays the operator for a transaction Kafka left hanging ({@link HangingTransactionOperator}). */
        private void abortHangingTransactions(String during) throws Exception {
            hangingAborted += HangingTransactionOperator.abortReported(
                    kafka,
                    List.of(in + ".clean", in + ".dlq"),
                    this::allSanitiserLogs,
                    line -> report(during + ": " + line));
        }

        /** For a failed recovery: each output partition's offsets, open transactions, and the sanitiser's log. */
        private String diagnosis() {
            StringBuilder text = new StringBuilder();
            try (Admin admin = Admin.create(kafka.adminConfig())) {
                List<HangingTransaction> open = new HangingTransactionFinder(admin, Duration.ZERO, Clock.systemUTC())
                        .find(List.of(in + ".clean", in + ".dlq"));
                text.append("open transactions on the output: ")
                        .append(open.size())
                        .append('\n');
                open.forEach(transaction ->
                        text.append("  ").append(transaction.describe()).append('\n'));
            } catch (Exception e) {
                text.append("open transactions: not known (").append(e).append(")\n");
            }
            text.append("records read ")
                    .append(reader.total())
                    .append(" of ")
                    .append(records)
                    .append('\n');
            text.append("the newest sanitiser's log ends:\n");
            List<String> log = logText(started.size() - 1).lines().toList();
            log.subList(Math.max(0, log.size() - 60), log.size()).forEach(line -> text.append("  ")
                    .append(line, 0, Math.min(line.length(), 400))
                    .append('\n'));
            return text.toString();
        }

        /** Waits until the newest sanitiser has logged that it runs. */
        private void awaitRunning() throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!logText(started.size() - 1).contains("-> RUNNING") && System.nanoTime() < deadline) {
                sleep(100);
            }
            assertThat(logText(started.size() - 1))
                    .as(name + ": the newest sanitiser runs before it is stopped")
                    .contains("-> RUNNING");
        }

        /** The logs of every sanitiser this run started, one after the other. */
        private String allSanitiserLogs() {
            StringBuilder logs = new StringBuilder();
            for (int instance = 0; instance < started.size(); instance++) {
                logs.append(logText(instance));
            }
            return logs.toString();
        }

        private String logText(int instance) {
            try {
                return Files.readString(logOf(instance));
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }

        private Path logOf(int instance) {
            return dir.resolve(name + "-" + instance + ".log");
        }

        /**
         * Waits until the writer has written every record and the output holds a copy of each record
         * the input holds, then stops the sanitiser with SIGTERM and accounts, key by key, against
         * the input read back.
         */
        void finish(Process sanitiser) throws Exception {
            writer.await();
            assertThat(writer.failure()).as(name + ": every input written").isNull();
            Map<Integer, Integer> input = FaultAccounting.countInput(kafka.consumerConfig("unused"), in, PARTITIONS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
            while (!reader.covers(input) && System.nanoTime() < deadline) {
                pause(100, "waiting for the last records");
            }
            sleep(3_000); // late duplicates would show up here
            // The killed instance may have committed the last records itself, leaving the newest
            // one still starting: the exit code asserted is that of a running sanitiser's stop.
            awaitRunning();
            sanitiser.destroy();
            assertThat(sanitiser.waitFor(60, TimeUnit.SECONDS)).isTrue();
            int exit = sanitiser.exitValue();
            reader.stop();
            FaultAccounting accounting = reader.accounting(input);
            report(String.format(
                    "%s: %d records, %d faults, lost %d, duplicated %d, misrouted %d, dead letters altered %d;"
                            + " longest recovery %d ms, longest stall %d ms, %d s in all;"
                            + " input: %d written twice by the writer's retries, %d sends repeated, %d producers replaced;"
                            + " %d hanging transactions aborted",
                    exactlyOnce ? "exactly-once" : "at-least-once",
                    records,
                    lines.stream().filter(l -> l.contains("resumed")).count(),
                    accounting.lost,
                    accounting.duplicated,
                    accounting.misrouted,
                    accounting.altered,
                    longestRecovery,
                    reader.longestStallMillis(),
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos),
                    accounting.inputDuplicates,
                    writer.sendsRepeated(),
                    writer.producersReplaced(),
                    hangingAborted));
            assertThat(exit).as(name + ": exit after SIGTERM").isZero();
            assertThat(input).as(name + ": every record in the input").hasSize(records);
            assertThat(accounting.lost)
                    .as(name + ": lost (the lowest keys: " + accounting.lostKeys + ")")
                    .isZero();
            assertThat(accounting.misrouted).as(name + ": misrouted").isZero();
            assertThat(accounting.altered)
                    .as(name + ": dead letters not byte-exact or without headers")
                    .isZero();
            if (exactlyOnce) {
                assertThat(accounting.duplicated).as(name + ": duplicated").isZero();
            }
        }

        void report(String line) {
            lines.add(line);
            System.out.println(FaultSuite.this.getClass().getSimpleName() + " " + name + ": " + line);
        }

        @Override
        public void close() throws Exception {
            writer.stop();
            reader.stop();
            for (Process process : started) {
                process.destroyForcibly().waitFor();
            }
            if (!kafka.isRunning()) {
                kafka.restart();
            }
            registry.restart();
        }
    }

    static byte[] key(int i) {
        return Integer.toString(i).getBytes(UTF_8);
    }

    /**
     * Reads the clean and dead-letter topics with {@code read_committed} from the beginning, on its
     * own thread, through every fault, and keeps the time between output records.
     */
    private static final class Reader {
        private final String in;
        private final IntFunction<byte[]> values;
        private final Thread thread;
        private final Map<Integer, Integer> seen = new HashMap<>(); // guarded by this
        private int misrouted; // guarded by this
        private int altered; // guarded by this
        private int total; // guarded by this
        private long lastArrival; // guarded by this
        private long longestStall; // guarded by this
        private volatile boolean stopped;

        Reader(String in, IntFunction<byte[]> values) {
            this.in = in;
            this.values = values;
            this.thread = new Thread(this::read, "fault-reader-" + in);
            thread.start();
        }

        private void read() {
            Map<String, Object> config = kafka.consumerConfig("unused");
            config.remove(ConsumerConfig.GROUP_ID_CONFIG);
            config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(in + ".clean", p));
                partitions.add(new TopicPartition(in + ".dlq", p));
            }
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                while (!stopped) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        account(record);
                    }
                }
            }
        }

        private synchronized void account(ConsumerRecord<byte[], byte[]> record) {
            long now = System.nanoTime();
            if (total > 0) {
                longestStall = Math.max(longestStall, now - lastArrival);
            }
            lastArrival = now;
            total++;
            int i = Integer.parseInt(new String(record.key(), UTF_8));
            seen.merge(i, 1, Integer::sum);
            boolean illFormed = i % 100 == 0;
            boolean dead = record.topic().endsWith(".dlq");
            if (dead != illFormed) {
                misrouted++;
            } else if (dead) {
                boolean annotated = false;
                for (Header header : record.headers()) {
                    annotated |= header.key().equals("__utf8.rule");
                }
                if (!annotated || !Arrays.equals(record.value(), values.apply(i))) {
                    altered++;
                }
            } else if (!Arrays.equals(record.value(), values.apply(i))) {
                altered++;
            }
        }

        synchronized int total() {
            return total;
        }

        /** Whether the output holds at least as many copies of each key as {@code input}. */
        synchronized boolean covers(Map<Integer, Integer> input) {
            for (Map.Entry<Integer, Integer> entry : input.entrySet()) {
                if (seen.getOrDefault(entry.getKey(), 0) < entry.getValue()) {
                    return false;
                }
            }
            return true;
        }

        synchronized long lastArrival() {
            return lastArrival;
        }

        synchronized long longestStallMillis() {
            return TimeUnit.NANOSECONDS.toMillis(longestStall);
        }

        synchronized FaultAccounting accounting(Map<Integer, Integer> input) {
            return FaultAccounting.of(input, seen, misrouted, altered);
        }

        void stop() throws InterruptedException {
            stopped = true;
            thread.join();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
