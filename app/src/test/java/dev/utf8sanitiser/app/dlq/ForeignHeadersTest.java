package dev.utf8sanitiser.app.dlq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.internals.DefaultErrorHandlerContext;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/**
 * Other tools' dead-letter headers read back: Kafka Streams' as its own writer builds them, the
 * others as their writers' sources write them (the ITs read the real tools' records), and the
 * hostile variants refused whole.
 */
class ForeignHeadersTest {
    private static final byte[] VALUE = "not json".getBytes(UTF_8);
    private static final Header OWN = PlainHeader.of("trace-id", "t1");

    /** A dead letter as Kafka Streams' own ExceptionHandlerUtils builds it, with the record's header. */
    static List<Header> streams(String topic, int partition, long offset, Exception e) {
        RecordHeaders original = new RecordHeaders(new Header[] {OWN});
        ProducerRecord<byte[], byte[]> built = ExceptionHandlerUtils.buildDeadLetterQueueRecord(
                "orders.dlq",
                null,
                VALUE,
                new DefaultErrorHandlerContext(
                        null, topic, partition, offset, original, "node", new TaskId(0, 0), 1000L, null, VALUE),
                e);
        return List.of(built.headers().toArray());
    }

    static List<Header> connect(String topic, String partition, String offset) {
        List<Header> h = new ArrayList<>(List.of(OWN));
        h.add(PlainHeader.of("__connect.errors.topic", topic));
        h.add(PlainHeader.of("__connect.errors.partition", partition));
        h.add(PlainHeader.of("__connect.errors.offset", offset));
        h.add(PlainHeader.of("__connect.errors.connector.name", "sink"));
        h.add(PlainHeader.of("__connect.errors.task.id", "0"));
        h.add(PlainHeader.of("__connect.errors.stage", "VALUE_CONVERTER"));
        h.add(PlainHeader.of("__connect.errors.class.name", "org.apache.kafka.connect.json.JsonConverter"));
        h.add(PlainHeader.of("__connect.errors.exception.class.name", "org.apache.kafka.connect.errors.DataException"));
        h.add(PlainHeader.of("__connect.errors.exception.message", "Converting byte[] to Kafka Connect data failed"));
        h.add(PlainHeader.of("__connect.errors.exception.stacktrace", "org.apache...\n\tat ..."));
        return h;
    }

    /** As DeadLetterRecordManager writes them: exception headers first, then the original-* ones. */
    static List<Header> spring(List<Header> before, String topic, byte[] partition, byte[] offset) {
        List<Header> h = new ArrayList<>(before);
        h.add(PlainHeader.of(
                "kafka_dlt-exception-fqcn", "org.springframework.kafka.listener.ListenerExecutionFailedException"));
        h.add(PlainHeader.of("kafka_dlt-exception-cause-fqcn", "java.lang.IllegalStateException"));
        h.add(PlainHeader.of("kafka_dlt-exception-message", "Listener failed; boom"));
        h.add(PlainHeader.of("kafka_dlt-exception-stacktrace", "java.lang...\n\tat ..."));
        h.add(new RecordHeader("kafka_dlt-original-topic", topic.getBytes(UTF_8)));
        h.add(new RecordHeader("kafka_dlt-original-partition", partition));
        h.add(new RecordHeader("kafka_dlt-original-offset", offset));
        h.add(new RecordHeader("kafka_dlt-original-timestamp", longBytes(1000L)));
        h.add(PlainHeader.of("kafka_dlt-original-timestamp-type", "CREATE_TIME"));
        h.add(PlainHeader.of("kafka_dlt-original-consumer-group", "orders-group"));
        return h;
    }

    /** As Confluent's DlqAction.populateHeaders writes them, after the record's own. */
    static List<Header> rule(String mode, String topic) {
        return List.of(
                OWN,
                PlainHeader.of("__rule.name", "checkSku"),
                PlainHeader.of("__rule.mode", mode),
                PlainHeader.of("__rule.subject", "orders-value"),
                PlainHeader.of("__rule.topic", topic),
                PlainHeader.of("__rule.exception", "Expr failed: 'message.sku != \"\"'"));
    }

    static byte[] intBytes(int n) {
        return ByteBuffer.allocate(4).putInt(n).array();
    }

    static byte[] longBytes(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    private static Foreign.Annotated annotated(List<Header> headers) {
        DeadLetter record = DeadLetterRecords.at(5, VALUE, headers);
        assertThat(record.annotation()).isEmpty();
        assertThat(record.foreign()).get().isInstanceOf(Foreign.Annotated.class);
        return record.foreignAnnotation().orElseThrow();
    }

    private static String refused(List<Header> headers) {
        DeadLetter record = DeadLetterRecords.at(5, VALUE, headers);
        assertThat(record.foreign()).get().isInstanceOf(Foreign.Refused.class);
        return ((Foreign.Refused) record.foreign().get()).reason();
    }

    @Test
    void kafkaStreamsOwnWriterIsRead() {
        List<Header> headers = streams("orders", 2, 17, new SerializationException("bad bytes"));
        DeadLetter record = DeadLetterRecords.at(5, VALUE, headers);
        Foreign.Annotated a = annotated(headers);

        assertThat(a.producer()).isEqualTo(Foreign.Producer.KAFKA_STREAMS);
        assertThat(a.source()).isEqualTo(new Foreign.Source("orders", OptionalInt.of(2), OptionalLong.of(17)));
        assertThat(a.error()).isEqualTo(SerializationException.class.getName());
        assertThat(a.message()).contains("bad bytes");
        assertThat(record.ownHeaders()).containsExactly(OWN);
    }

    @Test
    void anExceptionWithoutAMessageHasNone() {
        Foreign.Annotated a = annotated(streams("orders", 0, 0, new IllegalStateException()));
        assertThat(a.message()).isEmpty();
        assertThat(a.error()).isEqualTo("java.lang.IllegalStateException");
    }

    @Test
    void kafkaConnectContextHeadersAreRead() {
        Foreign.Annotated a = annotated(connect("orders", "1", "12"));

        assertThat(a.producer()).isEqualTo(Foreign.Producer.KAFKA_CONNECT);
        assertThat(a.source().toString()).isEqualTo("orders-1@12");
        assertThat(a.error()).isEqualTo("org.apache.kafka.connect.errors.DataException");
        assertThat(a.details())
                .containsEntry("connector.name", "sink")
                .containsEntry("stage", "VALUE_CONVERTER")
                .containsEntry("task.id", "0");
        assertThat(a.blockStart()).isEqualTo(1);
    }

    @Test
    void aRecordConnectDeadLetteredTwiceIsReadByItsLastBlock() {
        List<Header> first = connect("orders", "1", "12");
        List<Header> twice = new ArrayList<>(first);
        List<Header> second = connect("orders.retry", "0", "3");
        twice.addAll(second.subList(1, second.size()));

        Foreign.Annotated a = annotated(twice);
        assertThat(a.source().toString()).isEqualTo("orders.retry-0@3");
        assertThat(DeadLetterRecords.at(5, VALUE, twice).ownHeaders()).isEqualTo(first);
    }

    @Test
    void springKafkaBinaryCoordinatesAreRead() {
        Foreign.Annotated a = annotated(spring(List.of(OWN), "orders", intBytes(3), longBytes(40_000_000_000L)));

        assertThat(a.producer()).isEqualTo(Foreign.Producer.SPRING_KAFKA);
        assertThat(a.source())
                .isEqualTo(new Foreign.Source("orders", OptionalInt.of(3), OptionalLong.of(40_000_000_000L)));
        assertThat(a.error()).isEqualTo("org.springframework.kafka.listener.ListenerExecutionFailedException");
        assertThat(a.details())
                .containsEntry("exception-cause-fqcn", "java.lang.IllegalStateException")
                .containsEntry("original-consumer-group", "orders-group")
                .containsEntry("original-timestamp", "1000");
    }

    @Test
    void springKafkaAppendedOriginalHeadersAreReadByTheLastSet() {
        // appendOriginalHeaders (the default): a record from a DLT that fails again keeps the first
        // original-* headers and gets this failure's after them.
        List<Header> first = spring(List.of(OWN), "orders", intBytes(0), longBytes(5));
        List<Header> again = new ArrayList<>(first.stream()
                .filter(h -> !h.key().startsWith("kafka_dlt-exception"))
                .toList());
        List<Header> withSecond = spring(again, "orders.DLT", intBytes(1), longBytes(9));

        assertThat(annotated(withSecond).source().toString()).isEqualTo("orders.DLT-1@9");
    }

    @Test
    void confluentRuleActionIsReadAndOnlyReadModeGoesBackToItsTopic() {
        Foreign.Annotated read = annotated(rule("READ", "orders"));
        Foreign.Annotated write = annotated(rule("WRITE", "orders"));

        assertThat(read.producer()).isEqualTo(Foreign.Producer.CONFLUENT_RULE);
        assertThat(read.source()).isEqualTo(new Foreign.Source("orders", OptionalInt.empty(), OptionalLong.empty()));
        assertThat(read.error()).isEqualTo("rule checkSku");
        assertThat(read.message()).contains("Expr failed: 'message.sku != \"\"'");
        assertThat(read.details()).containsEntry("subject", "orders-value").containsEntry("mode", "READ");
        assertThat(read.notReplayable()).isEmpty();
        assertThat(write.notReplayable()).get().asString().contains("mode WRITE");
    }

    @Test
    void hostileValuesAreRefusedWithTheirReason() {
        assertThat(refused(connect("orders", "abc", "12"))).contains("__connect.errors.partition is not a number");
        assertThat(refused(connect("orders", "-1", "12"))).contains("__connect.errors.partition");
        assertThat(refused(connect("orders", "01", "12"))).contains("'01'");
        assertThat(refused(connect("orders", "1", "-5"))).contains("__connect.errors.offset");
        assertThat(refused(connect("orders", "2147483648", "5"))).contains("__connect.errors.partition");
        assertThat(refused(connect("../etc", "1", "5"))).contains("not a topic name");
        assertThat(refused(connect("", "1", "5"))).contains("not a topic name");
        assertThat(refused(connect("x".repeat(250), "1", "5"))).contains("not a topic name");
        assertThat(refused(spring(List.of(), "orders", new byte[3], longBytes(5))))
                .contains("has 3 bytes, not 4");
        assertThat(refused(spring(List.of(), "orders", intBytes(1), intBytes(5))))
                .contains("has 4 bytes, not 8");
        assertThat(refused(spring(List.of(), "orders", intBytes(-1), longBytes(5))))
                .contains("negative");
        assertThat(refused(spring(List.of(), "orders", intBytes(1), longBytes(-5))))
                .contains("negative");
        List<Header> notUtf8 = new ArrayList<>(rule("READ", "orders"));
        notUtf8.set(4, new RecordHeader("__rule.topic", new byte[] {'o', (byte) 0xC0, (byte) 0xAF}));
        assertThat(refused(notUtf8)).contains("__rule.topic is not UTF-8");
    }

    @Test
    void forgedMixturesAndPartialBlocksAreRefused() {
        // Connect's coordinates with a Streams header at the end: the Streams block is not whole.
        List<Header> mixture = new ArrayList<>(connect("orders", "1", "12"));
        mixture.add(PlainHeader.of("__streams.errors.topic", "payments"));
        assertThat(refused(mixture)).contains("six Kafka Streams writes");

        // Connect's block with a name of its own repeated, or out of its order.
        List<Header> repeated = new ArrayList<>(connect("orders", "1", "12"));
        repeated.add(PlainHeader.of("__connect.errors.exception.message", "again"));
        assertThat(refused(repeated)).contains("Kafka Connect writes");
        List<Header> swapped = new ArrayList<>(connect("orders", "1", "12"));
        Header topic = swapped.get(1);
        swapped.set(1, swapped.get(2));
        swapped.set(2, topic);
        assertThat(refused(swapped)).contains("Kafka Connect writes");

        // A Spring block with a name Spring does not write, or without an exception.
        List<Header> unknown = new ArrayList<>(spring(List.of(), "orders", intBytes(1), longBytes(5)));
        unknown.add(PlainHeader.of("kafka_dlt-original-target", "payments"));
        assertThat(refused(unknown)).contains("kafka_dlt-original-target is not a header");
        List<Header> noException = spring(List.of(), "orders", intBytes(1), longBytes(5)).stream()
                .filter(h -> !h.key().contains("exception"))
                .toList();
        assertThat(refused(noException)).contains("no kafka_dlt-exception-fqcn");

        // The rule action's block without its topic.
        List<Header> noTopic = new ArrayList<>(rule("READ", "orders"));
        noTopic.remove(4);
        assertThat(refused(noTopic)).contains("Confluent's DLQ rule action writes");
    }

    @Test
    void aRecordWhoseLastHeaderIsNoToolsCarriesNoForeignAnnotation() {
        List<Header> trailing = new ArrayList<>(connect("orders", "1", "12"));
        trailing.add(PlainHeader.of("trace-id", "t2"));
        DeadLetter record = DeadLetterRecords.at(5, VALUE, trailing);

        assertThat(record.foreign()).isEmpty();
        assertThat(record.ownHeaders()).isEqualTo(trailing);
    }

    @Test
    void replayToTheSourceSendsTheRecordWithItsOwnHeadersAndReplayHeaders() {
        DeadLetter record = DeadLetterRecords.at(5, VALUE, connect("orders", "1", "12"));
        Replay toSource = new Replay(Optional.empty(), Optional.empty(), Map.of(), Replay.DEFAULT_MAX_REPLAYS);

        Replay.Send send = (Replay.Send) toSource.of(record);

        assertThat(send.out().topic()).isEqualTo("orders");
        assertThat(send.out().partition())
                .as("the producer's partitioner chooses")
                .isNull();
        assertThat(send.out().value()).isEqualTo(VALUE);
        List<Header> headers = List.of(send.out().headers().toArray());
        assertThat(headers.get(0)).isEqualTo(OWN);
        assertThat(headers.subList(1, headers.size()))
                .extracting(Header::key)
                .containsExactly(
                        HeaderNames.REPLAY_TOPIC,
                        HeaderNames.REPLAY_PARTITION,
                        HeaderNames.REPLAY_OFFSET,
                        HeaderNames.REPLAY_COUNT);
    }

    @Test
    void replayRefusesWhatItCannotTrust() {
        Replay toSource = new Replay(Optional.empty(), Optional.empty(), Map.of(), Replay.DEFAULT_MAX_REPLAYS);
        Replay toOrders = new Replay("orders", Optional.empty(), Map.of());
        DeadLetter hostile = DeadLetterRecords.at(5, VALUE, connect("orders", "x", "12"));
        DeadLetter loop = DeadLetterRecords.at(5, VALUE, connect("orders.dlq", "0", "12"));
        DeadLetter log = DeadLetterRecords.at(5, VALUE, connect("orders.dlq.replayed", "0", "12"));
        DeadLetter internal = DeadLetterRecords.at(5, VALUE, connect("__consumer_offsets", "0", "12"));
        DeadLetter plain = DeadLetterRecords.at(5, VALUE, List.of(OWN));
        DeadLetter write = DeadLetterRecords.at(5, VALUE, rule("WRITE", "orders"));

        assertThat(why(toSource.of(hostile))).isEqualTo(Replay.Why.REFUSED);
        assertThat(why(toOrders.of(hostile))).isEqualTo(Replay.Why.REFUSED);
        assertThat(((Replay.Skip) toOrders.of(hostile)).reason()).contains("__connect.errors.partition");
        assertThat(why(toSource.of(loop))).isEqualTo(Replay.Why.NO_SOURCE);
        assertThat(why(toSource.of(log))).isEqualTo(Replay.Why.NO_SOURCE);
        assertThat(why(toSource.of(internal))).isEqualTo(Replay.Why.NO_SOURCE);
        assertThat(why(toSource.of(plain))).isEqualTo(Replay.Why.NO_SOURCE);
        assertThat(why(toSource.of(write))).isEqualTo(Replay.Why.NO_SOURCE);
        assertThat(toOrders.of(plain))
                .as("a record with no annotation goes where --to says")
                .isInstanceOf(Replay.Send.class);
        assertThat(why(Replay.existing(
                        toSource.of(DeadLetterRecords.at(5, VALUE, connect("gone", "0", "1"))),
                        java.util.Set.of("orders"))))
                .isEqualTo(Replay.Why.NO_SOURCE);
    }

    @Test
    void aForeignRecordReplayedAndDeadLetteredAgainIsQuarantined() {
        List<Header> back = new ArrayList<>();
        back.add(OWN);
        back.add(PlainHeader.of(HeaderNames.REPLAY_COUNT, "3"));
        List<Header> block = connect("orders", "1", "12");
        back.addAll(block.subList(1, block.size()));
        Replay toSource = new Replay(Optional.empty(), Optional.empty(), Map.of(), Replay.DEFAULT_MAX_REPLAYS);

        assertThat(why(toSource.of(DeadLetterRecords.at(5, VALUE, back)))).isEqualTo(Replay.Why.QUARANTINED);
    }

    @Test
    void selectionStatsAndInspectionShowTheForeignFacts() throws Exception {
        DeadLetter connect = DeadLetterRecords.at(5, VALUE, connect("orders", "1", "12"));
        DeadLetter hostile = DeadLetterRecords.at(6, VALUE, connect("orders", "1", "-12"));
        DeadLetter rule = DeadLetterRecords.at(7, VALUE, rule("READ", "orders"));
        Stats stats = new Stats();
        List.of(connect, hostile, rule).forEach(stats::add);

        assertThat(stats.byProducer()).isEqualTo(Map.of("kafka-connect", 2L, "confluent-rule", 1L));
        assertThat(stats.byError())
                .isEqualTo(Map.of(
                        "kafka-connect org.apache.kafka.connect.errors.DataException", 1L,
                        "kafka-connect (refused)", 1L,
                        "confluent-rule rule checkSku", 1L));
        assertThat(stats.bySource()).isEqualTo(Map.of("orders-1", 1L, "orders", 1L));
        assertThat(stats.byRule()).isEqualTo(Map.of(Stats.NOT_ANNOTATED, 3L));

        assertThat(new Selection(Optional.of("SURROGATE"), Optional.empty(), Optional.empty()).matches(connect))
                .isFalse();
        assertThat(source("orders-1@12").matches(connect)).isTrue();
        assertThat(source("orders-1@13").matches(connect)).isFalse();
        assertThat(source("orders").matches(rule)).isTrue();
        assertThat(source("orders-0").matches(rule))
                .as("the rule action names no partition")
                .isFalse();
        assertThat(source("orders").matches(hostile)).isFalse();
        Selection kafkaConnect =
                new Selection(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of("kafka-connect"));
        assertThat(kafkaConnect.matches(connect)).isTrue();
        assertThat(kafkaConnect.matches(hostile)).isTrue();
        assertThat(kafkaConnect.matches(rule)).isFalse();

        ByteArrayOutputStream text = new ByteArrayOutputStream();
        new Inspection(false, 8).print(new PrintStream(text, true, UTF_8), connect);
        new Inspection(false, 8).print(new PrintStream(text, true, UTF_8), hostile);
        assertThat(text.toString(UTF_8))
                .contains("  producer kafka-connect\n  source   orders-1@12\n"
                        + "  error    org.apache.kafka.connect.errors.DataException\n"
                        + "  message  Converting byte[] to Kafka Connect data failed\n")
                .contains("connector.name=sink")
                .contains("refused: headers named as kafka-connect's are not what it writes: __connect.errors.offset");
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        try (JsonGenerator generator = new JsonFactory().createGenerator(json)) {
            Inspection.write(generator, connect);
        }
        JsonNode line = new ObjectMapper().readTree(json.toByteArray());
        assertThat(line.get("producer").asText()).isEqualTo("kafka-connect");
        assertThat(line.get("source").get("topic").asText()).isEqualTo("orders");
        assertThat(line.get("source").get("partition").asInt()).isEqualTo(1);
        assertThat(line.get("source").get("offset").asLong()).isEqualTo(12);
        assertThat(line.get("error").asText()).isEqualTo("org.apache.kafka.connect.errors.DataException");
        assertThat(line.get("details").get("stage").asText()).isEqualTo("VALUE_CONVERTER");
    }

    private static Selection source(String s) {
        return new Selection(Optional.empty(), Optional.of(Selection.Source.parse(s)), Optional.empty());
    }

    private static Replay.Why why(Replay.Result result) {
        assertThat(result).isInstanceOf(Replay.Skip.class);
        return ((Replay.Skip) result).why();
    }
}
