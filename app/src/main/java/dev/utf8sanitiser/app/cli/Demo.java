package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.ExampleOrders;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * What {@code demo} does ({@link DemoCommand}): an embedded Kafka, the sanitiser (strict,
 * exactly-once), sample traffic built from the examples of the Unicode documents on ill-formed
 * UTF-8, then where each record went and the dead-letter records as an operator sees them. Apart
 * from the command because its methods name testkit's types, which picocli's reflection over a
 * command would load, and the production jar does not carry them.
 */
final class Demo {
    static final String INPUT = "demo.input";
    static final String OUTPUT = INPUT + ".clean";
    static final String DEAD_LETTER = INPUT + ".dlq";
    static final String ORDERS = "demo.orders";
    static final String ORDERS_OUTPUT = ORDERS + ".clean";
    static final String ORDERS_DEAD_LETTER = ORDERS + ".dlq";
    static final String PROTO_ORDERS = "demo.proto-orders";
    static final String PROTO_ORDERS_OUTPUT = PROTO_ORDERS + ".clean";
    static final String PROTO_ORDERS_DEAD_LETTER = PROTO_ORDERS + ".dlq";

    private final Io io;

    Demo(Io io) {
        this.io = io;
    }

    int run() throws Exception {
        PrintStream out = new PrintStream(io.out(), true, StandardCharsets.UTF_8);
        List<DemoTraffic.Sample> samples = DemoTraffic.samples();
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
                TestSchemaRegistry registry = TestSchemaRegistry.start()) {
            out.println("embedded kafka: bootstrap.servers=" + kafka.bootstrapServers());
            out.println("embedded registry: schema.registry.url=" + registry.url());
            kafka.createTopics(INPUT, ORDERS, PROTO_ORDERS);
            int schemaId = registry.register(ORDERS + "-value", ExampleOrders.SCHEMA.toString());
            List<DemoOrders.Sample> orders = DemoOrders.samples(schemaId);
            int protoSchemaId =
                    registry.register(PROTO_ORDERS + "-value", "PROTOBUF", DemoProtoOrders.SCHEMA, List.of());
            List<DemoProtoOrders.Sample> protoOrders = DemoProtoOrders.samples(protoSchemaId);
            Map<String, Object> avro =
                    Map.of("sanitiser.payload.format", "avro", "schema.registry.url", registry.url());
            Map<String, Object> protobuf =
                    Map.of("sanitiser.payload.format", "protobuf", "schema.registry.url", registry.url());
            try (SanitiserApplication text = SanitiserApplication.start(config(kafka, INPUT, Map.of()), false);
                    SanitiserApplication avroApp = SanitiserApplication.start(config(kafka, ORDERS, avro), false);
                    SanitiserApplication protobufApp =
                            SanitiserApplication.start(config(kafka, PROTO_ORDERS, protobuf), false)) {
                produce(
                        kafka,
                        INPUT,
                        samples.stream().map(DemoTraffic.Sample::value).toList());
                out.println(
                        "sent " + samples.size() + " records to " + INPUT + "; sanitising (strict, exactly once)...");
                produce(
                        kafka,
                        ORDERS,
                        orders.stream().map(DemoOrders.Sample::value).toList());
                out.println("sent " + orders.size() + " Avro orders (schema id " + schemaId + ") to " + ORDERS
                        + "; sanitising every string field (strict, exactly once)...");
                produce(
                        kafka,
                        PROTO_ORDERS,
                        protoOrders.stream().map(DemoProtoOrders.Sample::value).toList());
                out.println("sent " + protoOrders.size() + " Protobuf orders (schema id " + protoSchemaId + ") to "
                        + PROTO_ORDERS + "; sanitising the strings protobuf checks (strict, exactly once)...");
                Map<Integer, ConsumerRecord<byte[], byte[]>> landed =
                        consume(kafka, "text", OUTPUT, DEAD_LETTER, samples.size());
                Map<Integer, ConsumerRecord<byte[], byte[]>> landedOrders =
                        consume(kafka, "orders", ORDERS_OUTPUT, ORDERS_DEAD_LETTER, orders.size());
                Map<Integer, ConsumerRecord<byte[], byte[]>> landedProtoOrders = consume(
                        kafka, "proto-orders", PROTO_ORDERS_OUTPUT, PROTO_ORDERS_DEAD_LETTER, protoOrders.size());
                report(out, samples, landed);
                reportOrders(out, orders, landedOrders);
                reportProtoOrders(out, protoOrders, landedProtoOrders);
                return landed.size() == samples.size()
                                && landedOrders.size() == orders.size()
                                && landedProtoOrders.size() == protoOrders.size()
                        ? ExitCode.OK
                        : ExitCode.ILL_FORMED;
            }
        }
    }

    private static SanitiserConfig config(EmbeddedKafka kafka, String input, Map<String, Object> more) {
        Map<String, Object> props = new HashMap<>(more);
        props.put("application.id", "utf8-sanitiser-demo-" + input.replace('.', '-'));
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("sanitiser.input.topics", input);
        props.put("sanitiser.http.port", "-1");
        props.put("replication.factor", "1");
        props.put("commit.interval.ms", "100");
        props.put("consumer.auto.offset.reset", "earliest");
        return new SanitiserConfig(props);
    }

    private static void produce(EmbeddedKafka kafka, String topic, List<byte[]> values) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (int i = 0; i < values.size(); i++) {
                producer.send(new ProducerRecord<>(topic, key(i), values.get(i)))
                        .get();
            }
        }
    }

    /** Reads both topics, read_committed, until every sample is accounted for (or a minute passes). */
    private static Map<Integer, ConsumerRecord<byte[], byte[]>> consume(
            EmbeddedKafka kafka, String reader, String output, String deadLetter, int expected) {
        Map<String, Object> config = kafka.consumerConfig("utf8-sanitiser-demo-reader-" + reader);
        config.put("isolation.level", "read_committed");
        Map<Integer, ConsumerRecord<byte[], byte[]>> landed = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(output, deadLetter));
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

    private static void reportOrders(
            PrintStream out, List<DemoOrders.Sample> orders, Map<Integer, ConsumerRecord<byte[], byte[]>> landed) {
        out.println();
        out.println("Where each Avro order went (" + ORDERS + ", sanitiser.payload.format=avro):");
        int clean = placeEach(
                out, orders.stream().map(DemoOrders.Sample::label).toList(), landed, ORDERS_OUTPUT, ORDERS_DEAD_LETTER);
        out.println();
        out.printf(
                "%d of %d Avro records accounted for: %d to %s, %d to %s%n",
                landed.size(), orders.size(), clean, ORDERS_OUTPUT, landed.size() - clean, ORDERS_DEAD_LETTER);
        out.println();
        out.println("What Avro's own reader makes of the damaged fields, without a word:");
        for (int i = 0; i < orders.size(); i++) {
            DemoOrders.Sample sample = orders.get(i);
            ConsumerRecord<byte[], byte[]> r = landed.get(i);
            if (sample.damaged().isEmpty() || r == null || !r.topic().equals(ORDERS_DEAD_LETTER)) {
                continue;
            }
            out.printf(
                    "  %-24s GenericDatumReader reads %s; the DLQ record says %s (context %s)%n",
                    sample.damaged(),
                    printable(utf8(avroRead(sample.value(), sample.damaged()))),
                    header(r, "__streams.errors.message"),
                    header(r, "__utf8.context"));
        }
    }

    private static void reportProtoOrders(
            PrintStream out, List<DemoProtoOrders.Sample> orders, Map<Integer, ConsumerRecord<byte[], byte[]>> landed) {
        out.println();
        out.println("Where each Protobuf order went (" + PROTO_ORDERS + ", sanitiser.payload.format=protobuf):");
        int clean = placeEach(
                out,
                orders.stream().map(DemoProtoOrders.Sample::label).toList(),
                landed,
                PROTO_ORDERS_OUTPUT,
                PROTO_ORDERS_DEAD_LETTER);
        out.println();
        out.printf(
                "%d of %d Protobuf records accounted for: %d to %s, %d to %s%n",
                landed.size(),
                orders.size(),
                clean,
                PROTO_ORDERS_OUTPUT,
                landed.size() - clean,
                PROTO_ORDERS_DEAD_LETTER);
        out.println();
        out.println("What protobuf-java's DynamicMessage.parseFrom makes of the damaged orders, and what the sanitiser"
                + " says:");
        for (int i = 0; i < orders.size(); i++) {
            DemoProtoOrders.Sample sample = orders.get(i);
            ConsumerRecord<byte[], byte[]> r = landed.get(i);
            if (sample.damaged().isEmpty() || r == null || !r.topic().equals(PROTO_ORDERS_DEAD_LETTER)) {
                continue;
            }
            out.printf(
                    "  %-24s DynamicMessage.parseFrom %s; the DLQ record says %s (context %s)%n",
                    sample.damaged(),
                    DemoProtoOrders.protobufRead(sample.value()),
                    header(r, "__streams.errors.message"),
                    header(r, "__utf8.context"));
        }
    }

    /**
     * One line a record: its label and the topic it landed in, with the rule, field and offset of a
     * dead letter; returns how many went to {@code output}.
     */
    private static int placeEach(
            PrintStream out,
            List<String> labels,
            Map<Integer, ConsumerRecord<byte[], byte[]>> landed,
            String output,
            String deadLetter) {
        int clean = 0;
        for (int i = 0; i < labels.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = landed.get(i);
            String where;
            if (r == null) {
                where = "MISSING (not accounted for within a minute)";
            } else if (r.topic().equals(output)) {
                where = output;
                clean++;
            } else {
                String field = header(r, "__utf8.field");
                where = deadLetter + "  " + header(r, "__utf8.rule") + (field.isEmpty() ? "" : " in " + field)
                        + " at byte " + header(r, "__utf8.offset");
            }
            out.printf("  %-46s -> %s%n", labels.get(i), where);
        }
        return clean;
    }

    /** The string at {@code field} as Avro's GenericDatumReader decodes it. */
    private static String avroRead(byte[] value, String field) {
        try {
            Object datum = new GenericDatumReader<>(ExampleOrders.SCHEMA)
                    .read(null, DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, null));
            for (String step : field.split("\\.")) {
                datum = step(datum, step);
            }
            return datum.toString();
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** One step of a path: {@code name}, {@code name[i]} or {@code name{key}}. */
    private static Object step(Object datum, String step) {
        int bracket = step.indexOf('[');
        int brace = step.indexOf('{');
        String name = step.substring(0, bracket >= 0 ? bracket : brace >= 0 ? brace : step.length());
        Object value = ((GenericRecord) datum).get(name);
        if (bracket >= 0) {
            return ((List<?>) value).get(Integer.parseInt(step.substring(bracket + 1, step.length() - 1)));
        }
        if (brace >= 0) {
            return ((Map<?, ?>) value).get(new Utf8(step.substring(brace + 1, step.length() - 1)));
        }
        return value;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
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
