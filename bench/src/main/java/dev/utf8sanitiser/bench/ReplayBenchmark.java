package dev.utf8sanitiser.bench;

import static java.nio.charset.StandardCharsets.US_ASCII;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.dlq.Replay;
import dev.utf8sanitiser.app.dlq.ReplayRun;
import dev.utf8sanitiser.app.dlq.ReplaySender;
import dev.utf8sanitiser.app.dlq.Selection;
import dev.utf8sanitiser.app.dlq.TopicReader;
import dev.utf8sanitiser.bench.EndToEndResults.Cpu;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.config.TopicTemplate;
import dev.utf8sanitiser.registry.SchemaRegistryOwner;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dlq replay} against a plain transactional copy of the same dead-letter records, on one
 * embedded broker.
 *
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.ReplayBenchmark [--quick] [options]
 * </pre>
 *
 * <p>The dead letters are the sanitiser's own: {@code --records} ill-formed values go through
 * {@code SanitiserTopology} (policy strict) once, and its dead-letter topic, annotation and all, is
 * read into memory. Each round copies them, byte-exact with their headers and partitions, into a
 * fresh dead-letter topic (a replay skips what the topic's replay log holds, so a topic is
 * replayed once), then runs, in an order that alternates from round to round:
 *
 * <ul>
 *   <li><b>replay</b>: {@link ReplayRun} as {@code dlq replay --topic DLQ --to TOPIC} builds and
 *       runs it (the client settings, the {@link TopicReader}, the registry owner, a line a record
 *       printed, here to a stream that discards it): reads the replay log, then the topic
 *       read_committed, and sends each record with its {@code __utf8.replay.*} headers and its log
 *       entry in transactions of {@link ReplaySender#BATCH} records;
 *   <li><b>copy</b>: a read_committed consumer and a transactional producer with the same client
 *       settings that send each record as it is to a topic, committing every {@link
 *       ReplaySender#BATCH} records: what moving the records exactly once costs by itself.
 * </ul>
 *
 * <p>Each is timed from its first client's creation to its last commit, and checked: every record
 * in the target topic (and in the replay log), read read_committed. A ratio is replay over copy in
 * the same round; the report gives each round's and their median.
 */
@Command(
        name = "ReplayBenchmark",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Throughput of dlq replay against a plain transactional copy of the same dead letters.")
public final class ReplayBenchmark implements Callable<Integer> {
    @Option(names = "--quick", description = "A smoke test: 5,000 records, 2 rounds.")
    boolean quick;

    @Option(
            names = "--records",
            paramLabel = "N",
            description = "Dead-letter records replayed in each run (default: 100,000; with --quick 5,000).")
    Integer records;

    @Option(
            names = "--size",
            paramLabel = "BYTES",
            defaultValue = "100",
            description = "Size of each record's value (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(
            names = "--rounds",
            description = "Rounds of one replay and one copy, the order alternating (default: 5; with --quick 2).")
    Integer rounds;

    @Option(
            names = "--warmup-rounds",
            description = "Unmeasured rounds before the measured ones, so both runs are compiled (default: 1;"
                    + " with --quick 0).")
    Integer warmupRounds;

    @Option(
            names = "--partitions",
            defaultValue = "2",
            description = "Partitions of every topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
            names = "--seed",
            defaultValue = "20261127",
            description = "Seed of the record generator (default: ${DEFAULT-VALUE}).")
    long seed;

    private String[] arguments = new String[0];
    private EmbeddedKafka kafka;

    /** One timed run: replay or copy. */
    record Run(int round, String what, int records, double seconds, double appCpuSeconds, double brokerCpuSeconds) {
        double recordsPerSecond() {
            return records / seconds;
        }
    }

    /** What a whole benchmark measured, and the Markdown of it. */
    record Report(List<Run> runs, String markdown) {
        List<Double> ratios() {
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i + 1 < runs.size(); i += 2) {
                Run a = runs.get(i);
                Run b = runs.get(i + 1);
                Run replay = a.what().equals("replay") ? a : b;
                Run copy = replay == a ? b : a;
                ratios.add(replay.recordsPerSecond() / copy.recordsPerSecond());
            }
            return ratios;
        }
    }

    public static void main(String[] args) {
        ReplayBenchmark benchmark = new ReplayBenchmark();
        benchmark.arguments = args.clone();
        System.exit(new CommandLine(benchmark).execute(args));
    }

    /** Parses arguments as the command line would, for {@link #run()}; used by the test. */
    static ReplayBenchmark parse(String... args) {
        ReplayBenchmark benchmark = new ReplayBenchmark();
        benchmark.arguments = args.clone();
        new CommandLine(benchmark).parseArgs(args);
        return benchmark;
    }

    @Override
    public Integer call() throws Exception {
        System.out.print(run().markdown());
        System.out.flush();
        return 0;
    }

    int records() {
        return records != null ? records : quick ? 5_000 : 100_000;
    }

    int rounds() {
        return rounds != null ? rounds : quick ? 2 : 5;
    }

    int warmupRounds() {
        return warmupRounds != null ? warmupRounds : quick ? 0 : 1;
    }

    Report run() throws Exception {
        int n = records();
        String loadBefore = Machine.loadAverage();
        long started = System.nanoTime();
        List<Run> runs = new ArrayList<>();
        Path state = Files.createTempDirectory("replay-bench-");
        try (EmbeddedKafka broker = EmbeddedKafka.start()) {
            kafka = broker;
            progress("broker at %s (child JVM pid %d)", kafka.bootstrapServers(), kafka.pid());
            List<ConsumerRecord<byte[], byte[]>> deadLetters = sanitiserDeadLetters(n, state);
            // Rounds before the first are warm-up rounds, not recorded.
            for (int round = 1 - warmupRounds(); round <= rounds(); round++) {
                String topic = "replay-r" + (round + warmupRounds()) + ".dlq";
                fill(topic, deadLetters);
                boolean replayFirst = round % 2 == 1;
                for (int i = 0; i < 2; i++) {
                    Run run = replayFirst == (i == 0) ? replay(round, topic, n) : copy(round, topic, n);
                    if (round >= 1) {
                        runs.add(run);
                    }
                    progress(
                            "%s %s: %,.0f records/s (%.2f s; CPU µs/record: app %.1f, broker %.1f)",
                            round >= 1 ? "round " + round : "warm-up",
                            run.what(),
                            run.recordsPerSecond(),
                            run.seconds(),
                            run.appCpuSeconds() * 1e6 / n,
                            run.brokerCpuSeconds() * 1e6 / n);
                }
            }
        } finally {
            kafka = null;
            deleteRecursively(state);
        }
        double minutes = (System.nanoTime() - started) / 60e9;
        return report(runs, n, loadBefore, Machine.loadAverage(), minutes);
    }

    // The dead letters

    /** Runs the sanitiser over {@code n} ill-formed values; returns its dead-letter records, checked. */
    private List<ConsumerRecord<byte[], byte[]>> sanitiserDeadLetters(int n, Path state) throws Exception {
        String input = "replay-bench-in";
        kafka.createTopics(partitions, input);
        Map<String, Object> producerConfig = kafka.producerConfig();
        producerConfig.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        producerConfig.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        TextRecords values = new TextRecords(size, 1.0, seed);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig)) {
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(input, Integer.toString(i).getBytes(US_ASCII), values.next()));
            }
        }
        Map<String, Object> props = new HashMap<>();
        props.put(SanitiserConfig.INPUT_TOPICS_CONFIG, input);
        props.put(SanitiserConfig.OUTPUT_TOPIC_CONFIG, TopicTemplate.PLACEHOLDER + ".clean");
        props.put(SanitiserConfig.DLQ_TOPIC_CONFIG, TopicTemplate.PLACEHOLDER + ".dlq");
        props.put(SanitiserConfig.POLICY_CONFIG, "strict");
        props.put(SanitiserConfig.HTTP_PORT_CONFIG, "-1");
        props.put("application.id", "replay-bench-sanitiser");
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("state.dir", state.toString());
        props.put("consumer.auto.offset.reset", "earliest");
        props.put("processing.exception.handler.global.enabled", "true");
        SanitiserConfig config = new SanitiserConfig(props);
        String deadLetterTopic = config.dlqTopicTemplate().render(input);
        kafka.createTopics(partitions, config.outputTopicTemplate().render(input), deadLetterTopic);
        long start = System.nanoTime();
        List<ConsumerRecord<byte[], byte[]>> deadLetters;
        try (StreamsApp app = new StreamsApp(Topo.SANITISER, config, () -> new Cpu(0, 0, ThreadCpu.now()))) {
            app.start();
            deadLetters = readAll(deadLetterTopic, n, app::checkAlive);
        }
        for (ConsumerRecord<byte[], byte[]> letter : deadLetters) {
            if (DeadLetterHeaders.read(letter.headers()).isEmpty()) {
                throw new IllegalStateException("a dead letter without the sanitiser's annotation at " + letter);
            }
        }
        double headerBytes = deadLetters.stream()
                .mapToInt(r -> {
                    int bytes = 0;
                    for (var h : r.headers()) {
                        bytes += h.key().length() + (h.value() == null ? 0 : h.value().length);
                    }
                    return bytes;
                })
                .average()
                .orElse(0);
        progress(
                "the sanitiser dead-lettered %,d records in %.1f s, %.0f bytes of headers each",
                deadLetters.size(), (System.nanoTime() - start) / 1e9, headerBytes);
        return deadLetters;
    }

    /** Writes the records as they are (partition, timestamp, key, value, headers) to a fresh topic. */
    private void fill(String topic, List<ConsumerRecord<byte[], byte[]>> records) {
        kafka.createTopics(partitions, topic);
        Map<String, Object> config = kafka.producerConfig();
        config.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                producer.send(
                        new ProducerRecord<>(topic, r.partition(), r.timestamp(), r.key(), r.value(), r.headers()),
                        (metadata, e) -> {
                            if (e != null) {
                                failure.compareAndSet(null, e);
                            }
                        });
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("filling " + topic + " failed", failure.get());
        }
    }

    // The runs

    private Run replay(int round, String topic, int n) throws Exception {
        String target = topic + "-replayed-out";
        kafka.createTopics(partitions, target);
        SanitiserConfig settings = cliSettings(topic);
        PrintStream out = new PrintStream(OutputStream.nullOutputStream(), false, US_ASCII);
        ReplayRun run = new ReplayRun(
                topic,
                Optional.empty(),
                Selection.ALL,
                Optional.of(target),
                Optional.empty(),
                false,
                false,
                Replay.DEFAULT_MAX_REPLAYS,
                0);
        Cpu before = cpuNow();
        long start = System.nanoTime();
        ReplayRun.Tally tally;
        // As DlqCommand: its client settings, one reader, the registry owner, a line a record.
        try (TopicReader reader = new TopicReader(SanitiserApplication.adminProperties(settings.streamsProperties()));
                SchemaRegistryOwner registry = SchemaRegistryOwner.unchecked(settings)) {
            tally = run.run(
                    settings,
                    SanitiserApplication.adminProperties(settings.streamsProperties()),
                    reader,
                    registry,
                    result -> {
                        if (result instanceof Replay.Send send) {
                            out.println("sent " + result.record().coordinates() + " -> "
                                    + send.out().topic() + " (" + send.what() + ")");
                        } else if (result instanceof Replay.Skip skip) {
                            out.println("skipped " + result.record().coordinates() + ": " + skip.reason());
                        }
                    },
                    (read, total) -> {});
        }
        long end = System.nanoTime();
        Cpu after = cpuNow();
        if (tally.sent() != n || tally.chosen() != n) {
            throw new IllegalStateException("replay sent " + tally.sent() + " of " + tally.chosen() + " for " + n);
        }
        requireCount(target, n);
        requireCount(ReplaySender.logTopic(topic), n);
        return timed(round, "replay", n, start, end, before, after);
    }

    private Run copy(int round, String topic, int n) throws Exception {
        String target = topic + "-copied-out";
        kafka.createTopics(partitions, target);
        Properties client =
                SanitiserApplication.adminProperties(cliSettings(topic).streamsProperties());
        Properties producerProps = new Properties();
        producerProps.putAll(client);
        producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producerProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "replay-bench-copy-" + topic);
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        Cpu before = cpuNow();
        long start = System.nanoTime();
        int copied = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(TopicReader.readOnly(client));
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps)) {
            producer.initTransactions();
            producer.beginTransaction();
            int inTransaction = 0;
            List<TopicPartition> parts = partitionsOf(consumer, topic);
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> endOffsets = consumer.endOffsets(parts);
            while (parts.stream().anyMatch(p -> consumer.position(p) < endOffsets.get(p))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() >= endOffsets.get(new TopicPartition(r.topic(), r.partition()))) {
                        continue;
                    }
                    producer.send(new ProducerRecord<>(target, null, r.timestamp(), r.key(), r.value(), r.headers()));
                    copied++;
                    if (++inTransaction == ReplaySender.BATCH) {
                        producer.commitTransaction();
                        producer.beginTransaction();
                        inTransaction = 0;
                    }
                }
            }
            producer.commitTransaction();
        }
        long end = System.nanoTime();
        Cpu after = cpuNow();
        if (copied != n) {
            throw new IllegalStateException("copied " + copied + " records of " + n);
        }
        requireCount(target, n);
        return timed(round, "copy", n, start, end, before, after);
    }

    private static Run timed(int round, String what, int n, long start, long end, Cpu before, Cpu after) {
        return new Run(
                round,
                what,
                n,
                (end - start) / 1e9,
                (after.app() - before.app()) / 1e9,
                (after.broker() - before.broker()) / 1e9);
    }

    /** The settings a {@code dlq} command reads from its configuration: here, only where the brokers are. */
    private SanitiserConfig cliSettings(String topic) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put(SanitiserConfig.INPUT_TOPICS_CONFIG, "replay-bench-in");
        props.put(SanitiserConfig.HTTP_PORT_CONFIG, "-1");
        return new SanitiserConfig(props);
    }

    // Kafka plumbing

    /** Reads {@code topic} read_committed until it has {@code n} records; fails on more. */
    private List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int n, Runnable check) {
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>(n);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(readCommitted())) {
            List<TopicPartition> parts = partitionsOf(consumer, topic);
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            long deadline =
                    System.nanoTime() + Duration.ofSeconds(120 + n / 500).toNanos();
            while (all.size() < n) {
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
                check.run();
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(topic + " has " + all.size() + " of " + n + " records in time");
                }
            }
            consumer.poll(Duration.ofMillis(500)).forEach(all::add);
        }
        if (all.size() != n) {
            throw new IllegalStateException(topic + " has " + all.size() + " records, expected " + n);
        }
        return all;
    }

    private void requireCount(String topic, int n) {
        readAll(topic, n, () -> {});
    }

    private Map<String, Object> readCommitted() {
        Map<String, Object> config = kafka.consumerConfig("unused");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return config;
    }

    private static List<TopicPartition> partitionsOf(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        return consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .collect(Collectors.toList());
    }

    private Cpu cpuNow() {
        return new Cpu(Machine.processCpuNanos(), Machine.childCpuNanos(kafka.pid()), ThreadCpu.now());
    }

    // The report

    private Report report(List<Run> runs, int n, String loadBefore, String loadAfter, double minutes) {
        Report partial = new Report(runs, "");
        List<Double> ratios = partial.ratios();
        double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).toArray();
        StringBuilder md = new StringBuilder();
        md.append("```sh\n./mvnw -B -pl bench -am package -DskipTests\n")
                .append(command())
                .append("\n```\n\n");
        if (quick) {
            md.append("Quick mode, a smoke test: the figures say that it works, not how fast.\n\n");
        }
        md.append("- Machine: ").append(Machine.describe()).append('\n');
        md.append(String.format(
                Locale.ROOT,
                "- Load average (1 min): %s before, %s after; the whole run took %.1f min.%n",
                loadBefore,
                loadAfter,
                minutes));
        md.append(String.format(
                Locale.ROOT,
                "- %,d dead letters of the sanitiser (%d B values, strict), %d partitions; replay: `dlq replay"
                        + " --to TOPIC` (ReplayRun, exactly once, with its replay log); copy: read_committed"
                        + " consumer and transactional producer, the same client settings; both commit every %d"
                        + " records; the order alternates by round; %d unmeasured warm-up round(s) first.%n%n",
                n,
                size,
                partitions,
                ReplaySender.BATCH,
                warmupRounds()));
        md.append("| round | replay records/s | copy records/s | replay/copy |\n|---:|---:|---:|---:|\n");
        for (int i = 0; i + 1 < runs.size(); i += 2) {
            Run a = runs.get(i);
            Run b = runs.get(i + 1);
            Run replay = a.what().equals("replay") ? a : b;
            Run copy = replay == a ? b : a;
            md.append(String.format(
                    Locale.ROOT,
                    "| %d%s | %,.0f | %,.0f | %.2f |%n",
                    a.round(),
                    replay == a ? "" : " (copy first)",
                    replay.recordsPerSecond(),
                    copy.recordsPerSecond(),
                    ratios.get(i / 2)));
        }
        md.append(String.format(
                Locale.ROOT,
                "%nMedian replay/copy: **%.2f** (range %.2f–%.2f); median replay: %,.0f records/s, %.1f s for"
                        + " %,d records.%n",
                EndToEndResults.median(sorted),
                ratios.stream().mapToDouble(Double::doubleValue).min().orElse(0),
                ratios.stream().mapToDouble(Double::doubleValue).max().orElse(0),
                EndToEndResults.median(runs.stream()
                        .filter(r -> r.what().equals("replay"))
                        .mapToDouble(Run::recordsPerSecond)
                        .toArray()),
                EndToEndResults.median(runs.stream()
                        .filter(r -> r.what().equals("replay"))
                        .mapToDouble(Run::seconds)
                        .toArray()),
                n));
        return new Report(runs, md.toString());
    }

    private String command() {
        StringBuilder command = new StringBuilder("java");
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(arg -> arg.startsWith("-X") || arg.startsWith("-D") || arg.startsWith("--add-modules"))
                .forEach(arg -> command.append(' ').append(arg));
        command.append(" -cp bench/target/benchmarks.jar ").append(ReplayBenchmark.class.getName());
        for (String arg : arguments) {
            command.append(' ').append(arg);
        }
        return command.toString();
    }

    private static void progress(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[replay] " + format + "%n", args);
        System.err.flush();
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(path);
            }
        }
    }
}
