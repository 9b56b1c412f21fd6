package dev.utf8sanitiser.bench;

import static java.nio.charset.StandardCharsets.US_ASCII;

import dev.utf8sanitiser.bench.connect.CountingSinkConnector;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The Kafka Connect SMT ({@code Utf8Sanitise$Value}) in a real worker: records per second and the
 * worker's CPU time per record through a sink connector with the SMT against the same connector
 * without it, on the same pre-filled topic, in alternating rounds.
 *
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.ConnectBenchmark [--quick] [options]
 * </pre>
 *
 * <p>One broker (testkit, a child JVM), the test Schema Registry (in this JVM; the SMT asks it once
 * per schema id) and one standalone Connect worker (Kafka's {@code ConnectStandalone}, a child JVM
 * on this class path). For each format ({@code text}: the value is the text; {@code avro}: a
 * record of two strings in Confluent's wire format, the SMT reading it with {@code
 * sanitiser.payload.format=avro}) and size, N values are loaded into a one-partition topic, 1%
 * ill-formed, the last one well-formed. Each run creates a fresh sink connector through the REST
 * API on that topic (ByteArrayConverter, one task, a fresh consumer group, so it reads from the
 * start): {@link CountingSinkConnector}, which counts and measures from inside the worker, from
 * its first {@code put} to the one holding the topic's last record. With the SMT, the connector
 * runs it as docs/connect.md recommends for a sink: {@code sanitiser.on.reject=fail} into Connect's
 * dead-letter queue ({@code errors.tolerance=all}); without it, the same {@code errors.*}
 * settings, unused. {@code --on-reject route} measures routing instead. Each format and size has
 * one unmeasured run of each connector, then {@code --repeats} rounds of one run of each, the
 * order swapped every round; the ratio of a round is with / without.
 *
 * <p>The sink checks that it received every input record (without the SMT, or with route), or
 * exactly the well-formed ones (with fail): a run that lost or let through a record stops the
 * benchmark.
 */
@Command(
        name = "ConnectBenchmark",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Records/s and worker CPU per record of a Connect sink connector with Utf8Sanitise$Value",
            "against the same connector without it, on an embedded broker, in alternating rounds."
        })
public final class ConnectBenchmark implements Callable<Integer> {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);
    private static final String SMT = "dev.utf8sanitiser.connect.Utf8Sanitise$Value";
    private static final String DLQ = "connect-bench.dlq";
    /** Avro: an id and a text, both strings. */
    static final String SCHEMA = "{\"type\":\"record\",\"name\":\"Message\",\"fields\":["
            + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"text\",\"type\":\"string\"}]}";

    @Option(
            names = "--quick",
            description = "A smoke test: 20,000 and 10,000 records, 3 rounds; figures not meaningful.")
    boolean quick;

    @Option(
            names = "--formats",
            split = ",",
            defaultValue = "text,avro",
            description = "Value formats (default: ${DEFAULT-VALUE}).")
    List<String> formats;

    @Option(
            names = "--sizes",
            split = ",",
            defaultValue = "100,1024",
            description = "Value sizes in bytes, wire-format prefix included (default: ${DEFAULT-VALUE}).")
    List<Integer> sizes;

    @Option(
            names = "--records",
            split = ",",
            paramLabel = "N",
            description = "Records per run, one per size (default: 600,000 at 100 B, 200,000 at 1 KiB).")
    List<Integer> records;

    @Option(
            names = "--repeats",
            defaultValue = "5",
            description = "Rounds of one run with and one without the SMT (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(
            names = "--ill-formed",
            defaultValue = "0.01",
            description = "Fraction of ill-formed values (default: ${DEFAULT-VALUE}).")
    double illFormed;

    @Option(
            names = "--on-reject",
            defaultValue = "fail",
            description = "sanitiser.on.reject: fail (into Connect's dead-letter queue) or route (default:"
                    + " ${DEFAULT-VALUE}).")
    String onReject;

    @Option(
            names = "--worker-jvm-arg",
            paramLabel = "ARG",
            description = "An argument of the worker's JVM, repeatable (default: -Xms1g -Xmx1g --add-modules"
                    + " jdk.incubator.vector).")
    List<String> workerJvmArgs;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the values (default: ${DEFAULT-VALUE}).")
    long seed;

    private String[] arguments = new String[0];
    private int runCounter;

    /** One run's measurement, from inside the worker. */
    record Run(
            String connector,
            boolean smt,
            long inputRecords,
            double seconds,
            double processCpu,
            double threadCpu,
            String load) {
        double recordsPerSecond() {
            return inputRecords / seconds;
        }

        double cpuMicrosPerRecord() {
            return processCpu * 1e6 / inputRecords;
        }

        double threadCpuMicrosPerRecord() {
            return threadCpu * 1e6 / inputRecords;
        }
    }

    /** A loaded topic: its name, how many records, how many of them ill-formed. */
    record Input(String format, int size, String topic, int records, int illFormed) {}

    record Result(Input input, List<Run> without, List<Run> with) {}

    public static void main(String[] args) {
        ConnectBenchmark benchmark = new ConnectBenchmark();
        benchmark.arguments = args.clone();
        System.exit(new CommandLine(benchmark).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (!onReject.equals("fail") && !onReject.equals("route")) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--on-reject: fail or route");
        }
        List<String> jvmArgs = workerJvmArgs != null
                ? workerJvmArgs
                : List.of("-Xms1g", "-Xmx1g", "--add-modules", "jdk.incubator.vector");
        String loadBefore = loadAverages();
        long started = System.nanoTime();
        Path directory = Files.createTempDirectory("connect-bench-");
        List<Result> results = new ArrayList<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
                TestSchemaRegistry registry = TestSchemaRegistry.start()) {
            progress(
                    "broker at %s (child JVM pid %d), registry at %s",
                    kafka.bootstrapServers(), kafka.pid(), registry.url());
            kafka.createTopics(1, DLQ);
            List<Input> inputs = new ArrayList<>();
            for (String format : formats) {
                for (int s = 0; s < sizes.size(); s++) {
                    inputs.add(load(kafka, registry, format, sizes.get(s), recordsFor(s)));
                }
            }
            try (ConnectWorker worker = ConnectWorker.start(directory, kafka.bootstrapServers(), jvmArgs)) {
                progress("worker pid %d, log %s", worker.pid(), worker.log());
                for (Input input : inputs) {
                    results.add(measure(worker, registry, directory, input));
                }
            }
        } finally {
            deleteRecursively(directory);
        }
        System.out.print(report(results, jvmArgs, loadBefore, loadAverages(), (System.nanoTime() - started) / 60e9));
        System.out.flush();
        return 0;
    }

    private int recordsFor(int sizeIndex) {
        if (records != null && !records.isEmpty()) {
            return records.get(Math.min(sizeIndex, records.size() - 1));
        }
        int size = sizes.get(sizeIndex);
        if (quick) {
            return size <= 256 ? 20_000 : 10_000;
        }
        return size <= 256 ? 600_000 : 200_000;
    }

    private Result measure(ConnectWorker worker, TestSchemaRegistry registry, Path directory, Input input)
            throws Exception {
        run(worker, registry, directory, input, false, "warm-up");
        run(worker, registry, directory, input, true, "warm-up");
        List<Run> without = new ArrayList<>();
        List<Run> with = new ArrayList<>();
        for (int round = 1; round <= rounds(); round++) {
            boolean smtFirst = round % 2 == 0;
            for (boolean smt : new boolean[] {smtFirst, !smtFirst}) {
                (smt ? with : without).add(run(worker, registry, directory, input, smt, "round " + round));
            }
        }
        return new Result(input, without, with);
    }

    private int rounds() {
        return quick ? Math.min(repeats, 3) : repeats;
    }

    private Run run(
            ConnectWorker worker, TestSchemaRegistry registry, Path directory, Input input, boolean smt, String what)
            throws Exception {
        String name = "bench-" + (++runCounter) + "-" + input.format() + "-" + input.size() + (smt ? "-smt" : "-none");
        Path resultFile = directory.resolve(name + ".result");
        Map<String, String> config = new LinkedHashMap<>();
        config.put("connector.class", CountingSinkConnector.class.getName());
        config.put("tasks.max", "1");
        config.put("topics", input.topic());
        config.put("result.file", resultFile.toString());
        config.put("last.offset", Long.toString(input.records() - 1));
        // The same error handling with and without the SMT; without it nothing fails.
        config.put("errors.tolerance", "all");
        config.put("errors.deadletterqueue.topic.name", DLQ);
        config.put("errors.deadletterqueue.topic.replication.factor", "1");
        config.put("errors.deadletterqueue.context.headers.enable", "true");
        if (smt) {
            config.put("transforms", "sanitise");
            config.put("transforms.sanitise.type", SMT);
            config.put("transforms.sanitise.sanitiser.on.reject", onReject);
            if (input.format().equals("avro")) {
                config.put("transforms.sanitise.sanitiser.payload.format", "avro");
                config.put("transforms.sanitise.schema.registry.url", registry.url());
            }
        }
        worker.putConnector(name, config);
        long deadline = System.nanoTime() + 600_000_000_000L;
        for (int poll = 1; !Files.exists(resultFile); poll++) {
            // The task's status only every 5 s: each REST request costs the worker CPU time, which
            // would count in its CPU per record.
            String failure = poll % 50 == 0 ? worker.taskFailure(name) : "";
            if (!failure.isEmpty() || !worker.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        name + " did not finish: " + failure + "\nworker log ends:\n" + worker.logTail(40));
            }
            ConnectWorker.sleep(100);
        }
        worker.deleteConnector(name);
        String[] fields = Files.readString(resultFile, US_ASCII).trim().split(" ");
        long firstOffset = Long.parseLong(fields[0]);
        long lastOffset = Long.parseLong(fields[1]);
        long received = Long.parseLong(fields[5]);
        long expected = smt && onReject.equals("fail") ? input.records() - input.illFormed() : input.records();
        if (received != expected) {
            throw new IllegalStateException(
                    name + " received " + received + " records, expected " + expected + " (" + input + ")");
        }
        Run result = new Run(
                name,
                smt,
                lastOffset - firstOffset,
                Long.parseLong(fields[2]) / 1e9,
                Long.parseLong(fields[3]) / 1e9,
                Long.parseLong(fields[4]) / 1e9,
                loadAverages());
        progress(
                "%s %s %s %d B: %,.0f records/s, worker CPU %.2f us/record (task thread %.2f), load %s",
                what,
                smt ? "with SMT   " : "without SMT",
                input.format(),
                input.size(),
                result.recordsPerSecond(),
                result.cpuMicrosPerRecord(),
                result.threadCpuMicrosPerRecord(),
                result.load());
        return result;
    }

    /** Loads {@code n} values into a fresh one-partition topic; the last one is well-formed. */
    private Input load(EmbeddedKafka kafka, TestSchemaRegistry registry, String format, int size, int n) {
        String topic = "connect-bench-" + format + "-" + size;
        kafka.createTopics(1, topic);
        int schemaId = format.equals("avro") ? registry.register(topic + "-value", SCHEMA) : 0;
        int textSize = format.equals("avro") ? avroTextSize(size) : size;
        TextRecords texts = new TextRecords(textSize, illFormed, seed);
        Map<String, Object> producerConfig = new HashMap<>(kafka.producerConfig());
        producerConfig.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        producerConfig.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        int bad = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig)) {
            for (int i = 0; i < n; i++) {
                byte[] text = texts.next();
                while (i == n - 1 && texts.lastIllFormed()) {
                    text = texts.next(); // the sink stops at the last record: it must reach the sink
                }
                if (texts.lastIllFormed()) {
                    bad++;
                }
                byte[] value = format.equals("avro") ? avro(schemaId, i, text) : text;
                if (value.length != size) {
                    throw new IllegalStateException("value of " + value.length + " B, not " + size);
                }
                producer.send(new ProducerRecord<>(topic, 0, null, value));
            }
            producer.flush();
        }
        progress("loaded %,d %s values of %d B into %s, %,d ill-formed", n, format, size, topic, bad);
        return new Input(format, size, topic, n, bad);
    }

    /** The text length that makes an Avro value of {@code size} bytes: prefix, id, text. */
    static int avroTextSize(int size) {
        int rest = size - WireFormat.prefix(1).length - 11; // the id: a 1-byte length and 10 characters
        for (int text = rest; text > 0; text--) {
            if (text + varintLength(2L * text) == rest) {
                return text;
            }
        }
        throw new IllegalArgumentException("too small for an Avro value: " + size);
    }

    /** Confluent's wire format: the prefix, then the id and the text as Avro strings. */
    static byte[] avro(int schemaId, int index, byte[] text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(WireFormat.prefix(schemaId));
        byte[] id = String.format(Locale.ROOT, "m-%08d", index % 100_000_000).getBytes(US_ASCII);
        writeVarint(out, 2L * id.length);
        out.writeBytes(id);
        writeVarint(out, 2L * text.length); // zig-zag of a non-negative length
        out.writeBytes(text);
        return out.toByteArray();
    }

    private static void writeVarint(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    private static int varintLength(long value) {
        int length = 1;
        while ((value & ~0x7FL) != 0) {
            value >>>= 7;
            length++;
        }
        return length;
    }

    // ------------------------------------------------------------------------------------------
    // The report

    private String report(
            List<Result> results, List<String> jvmArgs, String loadBefore, String loadAfter, double minutes) {
        StringBuilder md = new StringBuilder();
        md.append("Command: `java -cp bench/target/benchmarks.jar ").append(ConnectBenchmark.class.getName());
        for (String argument : arguments) {
            md.append(' ').append(argument);
        }
        md.append("`\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Machine: %s; Kafka %s, one broker (KRaft) in a child JVM (-Xmx512m); the Connect worker (standalone,"
                        + " one sink task) in a child JVM with `%s`; the loading producer and the Schema Registry in"
                        + " the benchmark JVM, idle during the runs.%n",
                Machine.basics(),
                Machine.kafkaVersion(),
                String.join(" ", jvmArgs)));
        md.append(String.format(
                Locale.ROOT,
                "Load averages (1, 5, 15 min): %s at the start, %s at the end; %.1f minutes.%n",
                loadBefore,
                loadAfter,
                minutes));
        md.append(String.format(
                Locale.ROOT,
                "SMT: `sanitiser.on.reject=%s`%s; %d rounds, %.0f%% ill-formed.%n%n",
                onReject,
                onReject.equals("fail") ? " into Connect's dead-letter queue (`errors.tolerance=all`)" : "",
                rounds(),
                illFormed * 100));
        md.append("| format | size | records | without SMT: records/s | with SMT: records/s | ratio (min-max) |"
                + " worker CPU us/record without | with | CPU ratio (min-max) | task thread CPU us/record without"
                + " | with | 1-min load during runs |\n");
        md.append("|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---|\n");
        for (Result r : results) {
            List<Double> rate = ratios(r, Run::recordsPerSecond);
            List<Double> cpu = ratios(r, Run::cpuMicrosPerRecord);
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %d B | %,d | %,.0f | %,.0f | %.3f (%.3f-%.3f) | %.2f | %.2f | %.3f (%.3f-%.3f) | %.2f |"
                            + " %.2f | %s |%n",
                    r.input().format(),
                    r.input().size(),
                    r.input().records(),
                    median(r.without(), Run::recordsPerSecond),
                    median(r.with(), Run::recordsPerSecond),
                    median(rate),
                    rate.get(0),
                    rate.get(rate.size() - 1),
                    median(r.without(), Run::cpuMicrosPerRecord),
                    median(r.with(), Run::cpuMicrosPerRecord),
                    median(cpu),
                    cpu.get(0),
                    cpu.get(cpu.size() - 1),
                    median(r.without(), Run::threadCpuMicrosPerRecord),
                    median(r.with(), Run::threadCpuMicrosPerRecord),
                    loadRange(r)));
        }
        md.append("\nRecords/s and CPU are medians over the rounds; a ratio is the median of the rounds' ratios"
                + " (with / without, each round's two runs back to back), with the lowest and highest.\n\n");
        md.append("| run | SMT | records/s | worker CPU us/record | task thread us/record | load (1, 5, 15 min) |\n");
        md.append("|---|---|---:|---:|---:|---|\n");
        for (Result r : results) {
            List<Run> all = new ArrayList<>(r.without());
            all.addAll(r.with());
            all.sort(
                    Comparator.comparing(run -> Integer.parseInt(run.connector().split("-")[1])));
            for (Run run : all) {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %,.0f | %.2f | %.2f | %s |%n",
                        run.connector(),
                        run.smt() ? "with" : "without",
                        run.recordsPerSecond(),
                        run.cpuMicrosPerRecord(),
                        run.threadCpuMicrosPerRecord(),
                        run.load()));
            }
        }
        return md.toString();
    }

    /** Each round's with / without, sorted. */
    private static List<Double> ratios(Result r, ToDoubleFunction<Run> measure) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < r.with().size(); i++) {
            ratios.add(measure.applyAsDouble(r.with().get(i))
                    / measure.applyAsDouble(r.without().get(i)));
        }
        ratios.sort(null);
        return ratios;
    }

    private static double median(List<Run> runs, ToDoubleFunction<Run> measure) {
        return median(runs.stream().map(measure::applyAsDouble).sorted().toList());
    }

    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String loadRange(Result r) {
        List<Double> loads = Stream.concat(r.without().stream(), r.with().stream())
                .map(run -> Double.parseDouble(run.load().split(" ")[0]))
                .sorted()
                .toList();
        return String.format(Locale.ROOT, "%.2f-%.2f", loads.get(0), loads.get(loads.size() - 1));
    }

    /** The 1, 5 and 15 minute load averages of /proc/loadavg, or {@code n/a}. */
    static String loadAverages() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private static void progress(String format, Object... args) {
        System.err.println(LocalTime.now().format(CLOCK) + " " + String.format(Locale.ROOT, format, args));
    }

    private static void deleteRecursively(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
