package dev.utf8sanitiser.processor.cli;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.processor.app.SanitiserApplication;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import picocli.CommandLine.Command;

/**
 * {@code demo}: an embedded Kafka, the sanitiser (strict, exactly-once), sample traffic built from
 * the seeds' examples, then where each record went and the dead-letter records as an operator
 * sees them.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Start an embedded Kafka and the sanitiser, send sample traffic from the seeds'"
                + " examples, and show where every record went.")
final class DemoCommand implements Callable<Integer> {
    static final String INPUT = "demo.input";
    static final String OUTPUT = INPUT + ".clean";
    static final String DEAD_LETTER = INPUT + ".dlq";

    private final Io io;

    DemoCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        PrintStream out = new PrintStream(io.out(), true, StandardCharsets.UTF_8);
        List<DemoTraffic.Sample> samples = DemoTraffic.samples();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            out.println("embedded kafka: bootstrap.servers=" + kafka.bootstrapServers());
            kafka.createTopics(INPUT);
            try (SanitiserApplication app = SanitiserApplication.start(config(kafka), false)) {
                produce(kafka, samples);
                out.println(
                        "sent " + samples.size() + " records to " + INPUT + "; sanitising (strict, exactly once)...");
                Map<Integer, ConsumerRecord<byte[], byte[]>> landed = consume(kafka, samples.size());
                report(out, samples, landed);
                return landed.size() == samples.size() ? ExitCode.OK : ExitCode.ILL_FORMED;
            }
        }
    }

    private static SanitiserConfig config(EmbeddedKafka kafka) {
        Map<String, Object> props = new HashMap<>();
        props.put("application.id", "utf8-sanitiser-demo");
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("sanitiser.input.topics", INPUT);
        props.put("sanitiser.http.port", "-1");
        props.put("replication.factor", "1");
        props.put("commit.interval.ms", "100");
        props.put("consumer.auto.offset.reset", "earliest");
        return new SanitiserConfig(props);
    }

    private static void produce(EmbeddedKafka kafka, List<DemoTraffic.Sample> samples) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (int i = 0; i < samples.size(); i++) {
                producer.send(new ProducerRecord<>(INPUT, key(i), samples.get(i).value()))
                        .get();
            }
        }
    }

    /** Reads both topics, read_committed, until every sample is accounted for (or a minute passes). */
    private static Map<Integer, ConsumerRecord<byte[], byte[]>> consume(EmbeddedKafka kafka, int expected) {
        Map<String, Object> config = kafka.consumerConfig("utf8-sanitiser-demo-reader");
        config.put("isolation.level", "read_committed");
        Map<Integer, ConsumerRecord<byte[], byte[]>> landed = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(OUTPUT, DEAD_LETTER));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (landed.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    landed.put(Integer.parseInt(new String(r.key(), StandardCharsets.UTF_8)), r);
                }
            }
        }
        return landed;
    }

    private static void report(
            PrintStream out, List<DemoTraffic.Sample> samples, Map<Integer, ConsumerRecord<byte[], byte[]>> landed) {
        out.println();
        out.println("Where each record went:");
        Map<String, Integer> byRule = new TreeMap<>();
        int clean = 0;
        for (int i = 0; i < samples.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = landed.get(i);
            String where;
            if (r == null) {
                where = "MISSING (not accounted for within a minute)";
            } else if (r.topic().equals(OUTPUT)) {
                where = OUTPUT;
                clean++;
            } else {
                String rule = header(r, "__utf8.rule");
                byRule.merge(rule, 1, Integer::sum);
                where = DEAD_LETTER + "  " + rule + " at byte " + header(r, "__utf8.offset");
            }
            out.printf("  %-46s -> %s%n", samples.get(i).label(), where);
        }
        out.println();
        out.printf(
                "%d of %d records accounted for: %d to %s, %d to %s%n",
                landed.size(), samples.size(), clean, OUTPUT, landed.size() - clean, DEAD_LETTER);
        byRule.forEach((rule, n) -> out.printf("  %-26s %d%n", rule, n));

        out.println();
        out.println("Three dead-letter records as an operator sees them:");
        landed.entrySet().stream()
                .filter(e -> samples.get(e.getKey()).showcase()
                        && e.getValue().topic().equals(DEAD_LETTER))
                .map(Map.Entry::getValue)
                .forEach(r -> {
                    out.printf("  %s-%d@%d  key=%s%n", r.topic(), r.partition(), r.offset(), new String(r.key()));
                    out.printf(
                            "    source   %s-%s@%s%n",
                            header(r, "__utf8.source.topic"),
                            header(r, "__utf8.source.partition"),
                            header(r, "__utf8.source.offset"));
                    out.printf(
                            "    rule     %s at %s byte %s (length %s, %s errors in the record)%n",
                            header(r, "__utf8.rule"),
                            header(r, "__utf8.part"),
                            header(r, "__utf8.offset"),
                            header(r, "__utf8.length"),
                            header(r, "__utf8.errors"));
                    out.printf("    context  %s%n", header(r, "__utf8.context"));
                    out.printf(
                            "    replace  would send: %s%n",
                            printable(Utf8Sanitiser.sanitise(r.value(), Policy.REPLACE)
                                    .output()));
                    out.printf(
                            "    repair   would send: %s%n",
                            printable(Utf8Sanitiser.sanitise(r.value(), Policy.REPAIR)
                                    .output()));
                });
    }

    private static String printable(byte[] wellFormed) {
        String s = new String(wellFormed, StandardCharsets.UTF_8);
        StringBuilder b = new StringBuilder("\"");
        s.codePoints().forEach(cp -> {
            if (cp < 0x20 || cp == 0x7F) {
                b.append(String.format("\\u%04X", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.append('"').toString();
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static byte[] key(int i) {
        return Integer.toString(i).getBytes(StandardCharsets.UTF_8);
    }
}
