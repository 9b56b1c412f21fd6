package dev.utf8sanitiser.bench;

import static java.nio.charset.StandardCharsets.US_ASCII;

import dev.utf8sanitiser.app.topology.SanitiserTopology;
import dev.utf8sanitiser.bench.EndToEndOptions.Settings;
import dev.utf8sanitiser.bench.EndToEndResults.Cpu;
import dev.utf8sanitiser.bench.EndToEndResults.Latency;
import dev.utf8sanitiser.bench.EndToEndResults.Row;
import dev.utf8sanitiser.bench.EndToEndResults.RunLine;
import dev.utf8sanitiser.bench.EndToEndResults.Throughput;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.config.TopicTemplate;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * End to end: records per second and latency through the Kafka Streams sanitiser ({@link
 * SanitiserTopology}, policy {@code strict}) against a pass-through topology, on one real broker,
 * with the same records, the same {@code processing.guarantee} and the same commit interval, both
 * measured in the same run, interleaved.
 *
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.EndToEndBenchmark [--quick] [options]
 * </pre>
 *
 * <p>A plain main class, not JMH. JMH measures a method it calls over and over in a warm loop; here
 * one measurement is a whole run of a Kafka Streams application (join the group, process a topic
 * that was loaded beforehand, commit transactions) against a broker in another process, and the
 * quantity is the time until the last record is committed and visible to a reader. That does not
 * fit a benchmark method, and a JMH fork per run would start a broker per fork. So the warm-up,
 * the repetitions and the statistics are done here, plainly: an unmeasured warm-up run of each
 * topology, then each measurement repeated and reported as the median with the spread.
 *
 * <h2>What is measured</h2>
 *
 * <ul>
 *   <li><b>Throughput.</b> For each record size, {@code N} records are loaded into an input topic
 *       first. Each run starts a fresh application ({@code application.id}) on that topic, which
 *       reads it from the beginning, writing to fresh output (and dead-letter) topics. The time is
 *       taken from the moment Kafka Streams reports {@code RUNNING} (the group has formed and the
 *       tasks are assigned; start-up is reported apart) to the moment a {@code read_committed}
 *       consumer of the output and dead-letter topics has seen all {@code N} records. Runs
 *       alternate, pass-through, branching pass-through, sanitiser, {@code --repeats} times, each
 *       round starting one topology further on, so drift on a shared machine and a place in the
 *       round fall on all; a ratio reported is the median of the runs' ratios
 *       to the pass-through (or branching pass-through) run of the same round, each listed.
 *       Each run also reports the CPU time that this JVM and the broker's spent over the same
 *       interval, per record: a cost that other work on the machine disturbs less than the clock.
 *   <li><b>Latency.</b> A separate, paced run: with the application running, a producer sends
 *       {@code --latency-rate} records a second for {@code --latency-seconds} into a fresh topic,
 *       each carrying its intended send time (nanoseconds of this JVM) in a header; the {@code
 *       read_committed} consumer takes receive time minus intended send time. The intended time
 *       rather than the actual one, so a producer that falls behind shows as latency instead of
 *       hiding it. The first {@code --latency-warmup-seconds} are dropped. Under exactly-once the
 *       latency is set mostly by {@code commit.interval.ms}: output becomes visible when its
 *       transaction commits.
 * </ul>
 *
 * <p>The topologies differ only in the processor between source and sink: the same {@code
 * byte[]} serdes, the same Kafka Streams properties (all come from the one {@link SanitiserConfig}
 * of the run), the same partitions. The branching pass-through sends the ill-formed records to the
 * dead-letter topic unchanged, so it pays for a second topic in every transaction as the sanitiser
 * does; the sanitiser also updates its metrics and annotates its dead letters with headers. With
 * {@code --with-streams-dlq}, plain Kafka Streams with its own dead-letter queue runs in the same
 * rounds ({@link Topo#STREAMS_DLQ}): a strict {@code String} deserializer in place of the {@code
 * byte[]} one, and Kafka's handler writing the records it rejects to the same dead-letter topic.
 *
 * <p>Everything runs on this machine: the broker in a child JVM, the application, the loading
 * producer and the counting consumer in this one. The Markdown table on standard output, with the
 * command and the machine, is what docs/benchmarks.md quotes; progress goes to standard error.
 */
@Command(
        name = "EndToEndBenchmark",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Throughput and latency of the Kafka Streams sanitiser against a pass-through topology,",
            "on an embedded broker, same records and guarantee, measured in the same run."
        })
public final class EndToEndBenchmark implements Callable<Integer> {
    /** The header that carries a latency record's intended send time, {@link System#nanoTime()}. */
    static final String SENT_HEADER = "e2e.sent.nanos";

    private static final String MAIN_CLASS = EndToEndBenchmark.class.getName();

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    @Mixin
    EndToEndOptions options = new EndToEndOptions();

    private String[] arguments = new String[0];

    // Set for the length of run().
    private EmbeddedKafka kafka;
    private Admin admin;
    private Path stateDirectory;
    private int runCounter;

    public static void main(String[] args) {
        EndToEndBenchmark benchmark = new EndToEndBenchmark();
        benchmark.arguments = args.clone();
        System.exit(new CommandLine(benchmark).execute(args));
    }

    /** The resolved options. */
    Settings settings() {
        return options.settings();
    }

    /** Parses arguments as the command line would, for {@link #run()}; used by the test. */
    static EndToEndBenchmark parse(String... args) {
        EndToEndBenchmark benchmark = new EndToEndBenchmark();
        benchmark.arguments = args.clone();
        new CommandLine(benchmark).parseArgs(args);
        return benchmark;
    }

    @Override
    public Integer call() throws Exception {
        EndToEndReport report = run();
        System.out.print(report.markdown());
        System.out.flush();
        return 0;
    }

    /** Starts a broker, runs every measurement, stops the broker. */
    EndToEndReport run() throws Exception {
        Settings settings = options.settings();
        if (options.withStreamsDlq) {
            // Kafka Streams logs two WARNs with the stack trace for every record that fails to
            // deserialize (the handler's and RecordDeserializer's); the sanitiser logs its dead
            // letters at DEBUG, off by default. Left at ERROR so that neither pays for a log line a
            // record.
            Configurator.setLevel(LogAndContinueExceptionHandler.class.getName(), Level.ERROR);
            Configurator.setLevel("org.apache.kafka.streams.processor.internals.RecordDeserializer", Level.ERROR);
        }
        long started = System.nanoTime();
        String loadBefore = Machine.loadAverage();
        long busyBefore = Machine.machineBusyNanos();
        long ownBefore = Machine.processCpuNanos();
        double otherCpuSeconds;
        stateDirectory = Files.createTempDirectory("e2e-streams-");
        List<Row> rows = new ArrayList<>();
        List<RunLine> runs = new ArrayList<>();
        try (EmbeddedKafka broker = EmbeddedKafka.start();
                Admin brokerAdmin = Admin.create(broker.adminConfig())) {
            kafka = broker;
            admin = brokerAdmin;
            progress("broker at %s (child JVM pid %d)", kafka.bootstrapServers(), kafka.pid());
            if (settings.warmupRecords() > 0) {
                warmUp(settings.sizes().get(0), settings.warmupRecords());
            }
            for (int s = 0; s < settings.sizes().size(); s++) {
                rows.addAll(measure(
                        settings, settings.sizes().get(s), settings.records().get(s), runs));
            }
            // What the rest of the machine did meanwhile: its busy time less this JVM's and the
            // broker's (which started after busyBefore, so all of its CPU time counts).
            long ours = Machine.processCpuNanos() - ownBefore + Machine.childCpuNanos(kafka.pid());
            otherCpuSeconds = Math.max(0, Machine.machineBusyNanos() - busyBefore - ours) / 1e9;
        } finally {
            kafka = null;
            admin = null;
            deleteRecursively(stateDirectory);
        }
        double minutes = (System.nanoTime() - started) / 60e9;
        return new EndToEndReport(
                options,
                settings,
                rows,
                runs,
                command(),
                Machine.describe(),
                new EndToEndReport.Load(loadBefore, Machine.loadAverage(), otherCpuSeconds),
                minutes);
    }

    /** One unmeasured throughput run of each topology, so the JIT has compiled both paths. */
    private void warmUp(int size, int n) throws Exception {
        String input = "e2e-warmup-in";
        kafka.createTopics(options.partitions, input);
        int illFormedCount = load(input, size, n);
        for (Topo topo : Topo.inUse(options)) {
            Throughput t = throughput(topo, input, size, n, illFormedCount);
            progress("warm-up %s: %,.0f records/s (not measured)", topo.label, t.recordsPerSecond());
        }
        deleteTopics(input);
    }

    /**
     * The throughput runs of one size, interleaved, then a latency run of each topology; returns
     * a row of the table for each topology and adds each throughput run to {@code runs}.
     */
    private List<Row> measure(Settings settings, int size, int n, List<RunLine> runs) throws Exception {
        String input = "e2e-" + size + "-in";
        kafka.createTopics(options.partitions, input);
        int illFormedCount = load(input, size, n);
        List<Topo> topologies = Topo.inUse(options);
        Map<Topo, List<Throughput>> results = new EnumMap<>(Topo.class);
        for (int rep = 1; rep <= settings.repeats(); rep++) {
            for (Topo topo : Topo.inRound(rep, topologies)) {
                Throughput t = throughput(topo, input, size, n, illFormedCount);
                results.computeIfAbsent(topo, k -> new ArrayList<>()).add(t);
                runs.add(new RunLine(size, topo, rep, t));
                progress(
                        "%s %s run %d/%d: %,.0f records/s, %.1f CPU µs/record (app %.1f, broker %.1f; %.2f s processing, start-up"
                                + " %.2f s, %d to DLQ, %,d batches sent; app by thread: %s)",
                        EndToEndReport.sizeLabel(size),
                        topo.label,
                        rep,
                        settings.repeats(),
                        t.recordsPerSecond(),
                        t.cpuMicrosPerRecord(),
                        t.appCpuMicrosPerRecord(),
                        t.brokerCpuMicrosPerRecord(),
                        t.seconds(),
                        t.startupSeconds(),
                        t.deadLettered(),
                        t.producerBatches(),
                        t.appCpuByThread());
            }
        }
        deleteTopics(input);
        List<Row> rows = new ArrayList<>();
        for (Topo topo : topologies) {
            Latency latency = latency(topo, size, settings);
            progress(
                    "%s %s latency: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%,d records)",
                    EndToEndReport.sizeLabel(size),
                    topo.label,
                    latency.p50Ms(),
                    latency.p99Ms(),
                    latency.maxMs(),
                    latency.count());
            rows.add(new Row(size, n, topo, results, latency));
        }
        return rows;
    }

    // Runs

    /** One throughput run; see the class comment. */
    private Throughput throughput(Topo topo, String input, int size, int n, int illFormedCount) throws Exception {
        String run = nextRunName(topo);
        SanitiserConfig config = streamsConfig(input, run);
        String output = config.outputTopicTemplate().render(input);
        String deadLetter = config.dlqTopicTemplate().render(input);
        kafka.createTopics(options.partitions, output);
        kafka.createTopics(options.dlqPartitions(), deadLetter);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(readCommittedConsumer());
                StreamsApp app = new StreamsApp(topo, config, this::cpuNow)) {
            consumer.assign(partitionsOf(output, deadLetter));
            consumer.seekToBeginning(consumer.assignment());
            long deadline =
                    System.nanoTime() + Duration.ofSeconds(120 + n / 1_000).toNanos();
            app.start();
            int seen = 0;
            int dead = 0;
            long lastSeenAt = 0;
            while (seen < n) {
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(100));
                if (!polled.isEmpty()) {
                    lastSeenAt = System.nanoTime();
                    seen += polled.count();
                    for (int p = 0; p < options.dlqPartitions(); p++) {
                        List<ConsumerRecord<byte[], byte[]>> letters =
                                polled.records(new TopicPartition(deadLetter, p));
                        letters.forEach(letter -> checkDeadLetter(topo, letter));
                        dead += letters.size();
                    }
                }
                app.checkAlive();
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(topo.label + " saw " + seen + " of " + n + " records in time");
                }
            }
            // The loop ends on the poll that brought the last record: now is when it was seen.
            Cpu endCpu = cpuNow();
            long runningAt = app.runningAt();
            Cpu runningCpu = app.runningCpu();
            // More than n: a duplicate, which exactly-once must not produce. Look a little longer.
            seen += consumer.poll(Duration.ofMillis(500)).count();
            if (seen != n) {
                throw new IllegalStateException(topo.label + " wrote " + seen + " records for " + n);
            }
            int expected = topo.deadLetters() ? illFormedCount : 0;
            if (dead != expected) {
                throw new IllegalStateException(
                        topo.label + " dead-lettered " + dead + " records, expected " + expected);
            }
            return new Throughput(
                    n,
                    (long) n * size,
                    (lastSeenAt - runningAt) / 1e9,
                    (runningAt - app.startedAt()) / 1e9,
                    dead,
                    (endCpu.app() - runningCpu.app()) / 1e9,
                    (endCpu.broker() - runningCpu.broker()) / 1e9,
                    app.producerBatches(),
                    ThreadCpu.between(runningCpu.threads(), endCpu.threads()));
        } finally {
            deleteTopics(output, deadLetter);
        }
    }

    /**
     * A dead letter holds an ill-formed value, and Kafka Streams' own carry the exception its
     * deserializer threw in Kafka's header: a record misfiled, or filed without its reason, fails
     * the run.
     */
    private static void checkDeadLetter(Topo topo, ConsumerRecord<byte[], byte[]> letter) {
        if (letter.value() == null || Utf8Validator.isWellFormed(letter.value())) {
            throw new IllegalStateException(topo.label + " dead-lettered a well-formed value at " + letter.offset());
        }
        if (topo == Topo.STREAMS_DLQ) {
            Header exception = letter.headers().lastHeader(ExceptionHandlerUtils.HEADER_ERRORS_EXCEPTION_NAME);
            String name = exception == null ? "none" : new String(exception.value(), US_ASCII);
            if (!name.equals(SerializationException.class.getName())) {
                throw new IllegalStateException(
                        topo.label + " dead-lettered offset " + letter.offset() + " with exception header " + name);
            }
        }
    }

    /** One paced latency run; see the class comment. */
    private Latency latency(Topo topo, int size, Settings settings) throws Exception {
        String run = nextRunName(topo);
        String input = run + "-in";
        SanitiserConfig config = streamsConfig(input, run);
        String output = config.outputTopicTemplate().render(input);
        String deadLetter = config.dlqTopicTemplate().render(input);
        kafka.createTopics(options.partitions, input, output);
        kafka.createTopics(options.dlqPartitions(), deadLetter);
        int total = settings.latencyRate() * settings.latencySeconds();
        int skipped = settings.latencyRate() * settings.latencyWarmupSeconds();
        long[] latencies = new long[total - skipped];
        int measured = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(readCommittedConsumer());
                StreamsApp app = new StreamsApp(topo, config, this::cpuNow)) {
            consumer.assign(partitionsOf(output, deadLetter));
            consumer.seekToBeginning(consumer.assignment());
            consumer.poll(Duration.ZERO); // resolves the positions before the first record is sent
            app.start();
            app.awaitRunning(Duration.ofSeconds(120));
            AtomicReference<Throwable> producerFailure = new AtomicReference<>();
            Thread producer = new Thread(
                    () -> pacedSend(input, size, settings.latencyRate(), total, producerFailure), "e2e-paced-producer");
            producer.start();
            long deadline = System.nanoTime()
                    + Duration.ofSeconds(settings.latencySeconds() + 60).toNanos();
            int received = 0;
            while (received < total) {
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(100));
                long now = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> record : polled) {
                    received++;
                    int index = Integer.parseInt(new String(record.key(), US_ASCII));
                    if (index >= skipped && measured < latencies.length) {
                        Header sent = record.headers().lastHeader(SENT_HEADER);
                        latencies[measured++] =
                                now - ByteBuffer.wrap(sent.value()).getLong();
                    }
                }
                app.checkAlive();
                if (producerFailure.get() != null) {
                    throw new IllegalStateException("the paced producer failed", producerFailure.get());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            topo.label + " delivered " + received + " of " + total + " in time");
                }
            }
            producer.join();
        } finally {
            deleteTopics(input, output, deadLetter);
        }
        return Latency.of(Arrays.copyOf(latencies, measured));
    }

    /**
     * Sends {@code total} records at {@code rate} a second, record {@code i} at {@code start + i /
     * rate}, its intended time in {@link #SENT_HEADER}; behind schedule, it sends at once.
     */
    private void pacedSend(String topic, int size, int rate, int total, AtomicReference<Throwable> failure) {
        Map<String, Object> config = kafka.producerConfig();
        // Send each record now, rather than waiting for a batch: the latency is the topology's.
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        TextRecords values = new TextRecords(size, options.illFormed, options.seed + 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            long period = TimeUnit.SECONDS.toNanos(1) / rate;
            long start = System.nanoTime();
            for (int i = 0; i < total && failure.get() == null; i++) {
                long due = start + i * period;
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                List<Header> headers = List.of(new PlainHeader(
                        SENT_HEADER,
                        ByteBuffer.allocate(Long.BYTES).putLong(due).array()));
                producer.send(
                        new ProducerRecord<>(topic, null, null, key(i), values.next(), headers),
                        (metadata, exception) -> {
                            if (exception != null) {
                                failure.compareAndSet(null, exception);
                            }
                        });
            }
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    /** Loads {@code n} records into the topic; returns how many of them are ill-formed. */
    private int load(String topic, int size, int n) throws InterruptedException {
        Map<String, Object> config = kafka.producerConfig();
        config.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        TextRecords values = new TextRecords(size, options.illFormed, options.seed);
        AtomicReference<Exception> failure = new AtomicReference<>();
        int illFormedCount = 0;
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            for (int i = 0; i < n && failure.get() == null; i++) {
                byte[] value = values.next();
                illFormedCount += values.lastIllFormed() ? 1 : 0;
                producer.send(new ProducerRecord<>(topic, key(i), value), (metadata, exception) -> {
                    if (exception != null) {
                        failure.compareAndSet(null, exception);
                    }
                });
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("loading " + topic + " failed", failure.get());
        }
        progress(
                "loaded %,d records of %s into %s (%,d ill-formed) in %.1f s",
                n, EndToEndReport.sizeLabel(size), topic, illFormedCount, (System.nanoTime() - start) / 1e9);
        return illFormedCount;
    }

    // Kafka plumbing

    /**
     * The run's configuration: the sanitiser's topology is built from it, and both topologies' Kafka
     * Streams properties come from it alike. The output and dead-letter topics are templates of the
     * input topic's name, like the defaults ({@code ${topic}.clean}, {@code ${topic}.dlq}), so the
     * sanitiser names each record's topic as it does in a default deployment; the run's name in
     * them keeps every run's topics apart.
     */
    private SanitiserConfig streamsConfig(String input, String applicationId) {
        Map<String, Object> props = new HashMap<>();
        props.put(SanitiserConfig.INPUT_TOPICS_CONFIG, input);
        props.put(SanitiserConfig.OUTPUT_TOPIC_CONFIG, TopicTemplate.PLACEHOLDER + "." + applicationId + ".clean");
        props.put(SanitiserConfig.DLQ_TOPIC_CONFIG, TopicTemplate.PLACEHOLDER + "." + applicationId + ".dlq");
        props.put(SanitiserConfig.POLICY_CONFIG, "strict");
        props.put(SanitiserConfig.HTTP_PORT_CONFIG, "-1");
        props.put(SanitiserConfig.PROCESSING_GUARANTEE_CONFIG, options.guarantee);
        props.put("application.id", applicationId);
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("commit.interval.ms", Long.toString(options.commitIntervalMs));
        props.put("num.stream.threads", Integer.toString(options.streamThreads));
        props.put("state.dir", stateDirectory.toString());
        props.put("consumer.auto.offset.reset", "earliest");
        // As SanitiserApplication sets it, so Kafka 4.3 does not warn at start-up.
        props.put("processing.exception.handler.global.enabled", "true");
        props.putAll(options.properties);
        return new SanitiserConfig(props);
    }

    private Map<String, Object> readCommittedConsumer() {
        Map<String, Object> config = kafka.consumerConfig("unused");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG); // assigned options.partitions, no group
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // A fetch answers within 10 ms even when nothing new is committed, so a commit is seen
        // soon after it happens whatever wakes the broker's delayed fetches.
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        return config;
    }

    /** Every partition of an output topic and of a dead-letter topic. */
    private List<TopicPartition> partitionsOf(String output, String deadLetter) {
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < options.partitions; p++) {
            all.add(new TopicPartition(output, p));
        }
        for (int p = 0; p < options.dlqPartitions(); p++) {
            all.add(new TopicPartition(deadLetter, p));
        }
        return all;
    }

    private void deleteTopics(String... topics) throws InterruptedException {
        try {
            admin.deleteTopics(List.of(topics)).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            progress("could not delete %s: %s", Arrays.toString(topics), e);
        }
    }

    private String nextRunName(Topo topo) {
        return String.format(
                Locale.ROOT, "e2e-%03d-%s", ++runCounter, topo.name().toLowerCase(Locale.ROOT));
    }

    private static byte[] key(int index) {
        return Integer.toString(index).getBytes(US_ASCII);
    }

    // Results

    private Cpu cpuNow() {
        return new Cpu(Machine.processCpuNanos(), Machine.childCpuNanos(kafka.pid()), ThreadCpu.now());
    }

    private String command() {
        StringBuilder command = new StringBuilder("java");
        List<String> jvm = ManagementFactory.getRuntimeMXBean().getInputArguments();
        jvm.stream()
                .filter(arg -> arg.startsWith("-X") || arg.startsWith("-D") || arg.startsWith("--add-modules"))
                .forEach(arg -> command.append(' ').append(arg));
        command.append(" -cp bench/target/benchmarks.jar ").append(MAIN_CLASS);
        for (String arg : arguments) {
            command.append(' ').append(arg);
        }
        return command.toString();
    }

    /** A line on standard error, with the wall-clock time to match it with a profile or a probe. */
    private static void progress(String format, Object... args) {
        String time = LocalTime.now().format(CLOCK);
        System.err.printf(Locale.ROOT, "[e2e " + time + "] " + format + "%n", args);
        System.err.flush();
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(path);
            }
        }
    }
}
