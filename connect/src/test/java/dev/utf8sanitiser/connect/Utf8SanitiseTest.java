package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.connect.Records.CESU8_PAIR;
import static dev.utf8sanitiser.connect.Records.LATIN1;
import static dev.utf8sanitiser.connect.Records.SURROGATE;
import static dev.utf8sanitiser.connect.Records.TIMESTAMP;
import static dev.utf8sanitiser.connect.Records.bytes;
import static dev.utf8sanitiser.connect.Records.header;
import static dev.utf8sanitiser.connect.Records.headers;
import static dev.utf8sanitiser.connect.Records.props;
import static dev.utf8sanitiser.connect.Records.sink;
import static dev.utf8sanitiser.connect.Records.source;
import static dev.utf8sanitiser.connect.Records.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The transformation on whole byte arrays, buffers and strings: every policy and both rejections. */
class Utf8SanitiseTest {

    /** The value form, for sink records. */
    static Utf8Sanitise<SinkRecord> value(Object... keysAndValues) {
        return configured(new Utf8Sanitise.Value<SinkRecord>(), keysAndValues);
    }

    /** The value form, for source records. */
    static Utf8Sanitise<SourceRecord> sourceValue(Object... keysAndValues) {
        return configured(new Utf8Sanitise.Value<SourceRecord>(), keysAndValues);
    }

    static Utf8Sanitise<SinkRecord> key(Object... keysAndValues) {
        return configured(new Utf8Sanitise.Key<SinkRecord>(), keysAndValues);
    }

    private static <R extends ConnectRecord<R>> Utf8Sanitise<R> configured(Utf8Sanitise<R> smt, Object... props) {
        smt.configure(props(props));
        return smt;
    }

    @Test
    void passesAWellFormedRecordOnAsItCame() {
        SinkRecord record = sink(Schema.BYTES_SCHEMA, utf8("grüße 😀"));

        assertThat(value().apply(record)).isSameAs(record);
        assertThat(value("sanitiser.policy", "replace").apply(record)).isSameAs(record);
    }

    @Test
    void passesATombstone() {
        SinkRecord record = sink(Schema.OPTIONAL_BYTES_SCHEMA, null);

        assertThat(value().apply(record)).isSameAs(record);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "surrogate | SURROGATE at value byte 3 (ED A0 80)",
                "cesu8     | SURROGATE at value byte 1 (ED A0 BD ED B8 80)",
                "latin1    | TRUNCATED_AT_END at value byte 3 (E9)",
            })
    void strictFailsTheRecordWithRuleOffsetAndBytes(String sample, String message) {
        byte[] bytes = sample(sample);

        assertThatThrownBy(() -> value().apply(sink(Schema.BYTES_SCHEMA, bytes)))
                .isExactlyInstanceOf(DataException.class)
                .hasMessage(message);
    }

    @Test
    void replaceWritesOneReplacementCharacterPerMaximalSubpartAndSaysSo() {
        SinkRecord fixed = value("sanitiser.policy", "replace").apply(sink(Schema.BYTES_SCHEMA, SURROGATE));

        assertThat((byte[]) fixed.value()).isEqualTo(utf8("abc\uFFFD\uFFFD\uFFFDd"));
        assertThat(fixed.valueSchema()).isEqualTo(Schema.BYTES_SCHEMA);
        assertThat(headers(fixed.headers()))
                .containsExactly(
                        entry("trace", "t-1"), entry("__utf8.action", "replaced"), entry("__utf8.errors", "3"));
        assertThat(fixed.key()).isEqualTo(utf8("k"));
        assertThat(fixed.timestamp()).isEqualTo(TIMESTAMP);
        assertThat(fixed.kafkaOffset()).isEqualTo(41L);
    }

    @Test
    void repairTurnsACesu8PairIntoTheFourByteForm() {
        SinkRecord fixed = value("sanitiser.policy", "repair").apply(sink(Schema.BYTES_SCHEMA, CESU8_PAIR));

        assertThat((byte[]) fixed.value()).isEqualTo(utf8("x😀"));
        assertThat(header(fixed.headers(), "__utf8.action")).isEqualTo("repaired");
        assertThat(header(fixed.headers(), "__utf8.errors")).isEqualTo("1");
    }

    @Test
    void repairReplacesWhatItCannotRepair() {
        SinkRecord fixed = value("sanitiser.policy", "repair").apply(sink(Schema.BYTES_SCHEMA, LATIN1));

        assertThat((byte[]) fixed.value()).isEqualTo(utf8("caf\uFFFD"));
        assertThat(header(fixed.headers(), "__utf8.action")).isEqualTo("replaced");
    }

    @Test
    void aByteBufferStaysAByteBufferAndIsNotConsumed() {
        ByteBuffer buffer = ByteBuffer.allocate(10);
        buffer.put((byte) '#').put(SURROGATE).flip().position(1); // a buffer over part of an array
        SinkRecord record = sink(Schema.BYTES_SCHEMA, buffer);

        SinkRecord fixed = value("sanitiser.policy", "replace").apply(record);

        assertThat(fixed.value()).isInstanceOf(ByteBuffer.class);
        ByteBuffer out = (ByteBuffer) fixed.value();
        byte[] text = new byte[out.remaining()];
        out.get(text);
        assertThat(text).isEqualTo(utf8("abc\uFFFD\uFFFD\uFFFDd"));
        assertThat(buffer.position()).isEqualTo(1);
        assertThatThrownBy(() -> value().apply(record)).hasMessage("SURROGATE at value byte 3 (ED A0 80)");
    }

    @Test
    void aStringCanOnlyHoldLoneSurrogatesEachReportedAtItsThreeByteForm() {
        // "Zoë " is 5 bytes in UTF-8, so the lone high surrogate's ED A0 80 would start at byte 5.
        SinkRecord record = sink(Schema.STRING_SCHEMA, "Zoë \uD800 and \uDC00!");

        assertThatThrownBy(() -> value().apply(record)).hasMessage("SURROGATE at value byte 5 (ED A0 80)");

        SinkRecord fixed = value("sanitiser.policy", "replace").apply(record);
        assertThat(fixed.value()).isEqualTo("Zoë \uFFFD and \uFFFD!");
        assertThat(header(fixed.headers(), "__utf8.errors")).isEqualTo("2");
        assertThat(header(fixed.headers(), "__utf8.action")).isEqualTo("replaced");
    }

    @Test
    void aSurrogatePairInAStringIsOneWellFormedCharacter() {
        SinkRecord record = sink(Schema.STRING_SCHEMA, "\uD83D\uDE00");

        assertThat(value().apply(record)).isSameAs(record);
    }

    @Test
    void theKeyFormChecksTheKey() {
        SinkRecord record = sink(Schema.BYTES_SCHEMA, LATIN1, Schema.BYTES_SCHEMA, SURROGATE);

        assertThatThrownBy(() -> key().apply(record)).hasMessage("TRUNCATED_AT_END at key byte 3 (E9)");

        SinkRecord fixed = key("sanitiser.policy", "replace").apply(record);
        assertThat((byte[]) fixed.key()).isEqualTo(utf8("caf\uFFFD"));
        assertThat(fixed.value()).isSameAs(SURROGATE);
        assertThat(header(fixed.headers(), "__utf8.action")).isEqualTo("replaced");
    }

    @Test
    void theKeyAndValueFormsChainForBoth() {
        SinkRecord record = sink(Schema.BYTES_SCHEMA, LATIN1, Schema.BYTES_SCHEMA, SURROGATE);

        SinkRecord fixed = key("sanitiser.policy", "replace")
                .apply(value("sanitiser.policy", "replace").apply(record));

        assertThat((byte[]) fixed.key()).isEqualTo(utf8("caf\uFFFD"));
        assertThat((byte[]) fixed.value()).isEqualTo(utf8("abc\uFFFD\uFFFD\uFFFDd"));
        assertThat(fixed.headers().allWithName("__utf8.action")).toIterable().hasSize(2);
    }

    @Test
    void contentRulesApplyAfterTheUtf8Policy() {
        byte[] nul = bytes("a", 0x00, "b", 0xC2, 0x85);

        assertThatThrownBy(() -> value("sanitiser.content.rules", "NUL:reject").apply(sink(Schema.BYTES_SCHEMA, nul)))
                .hasMessage("NUL at value byte 1 (00)");

        SinkRecord stripped =
                value("sanitiser.content.rules", "NUL:strip,C1_CONTROL:strip").apply(sink(Schema.BYTES_SCHEMA, nul));
        assertThat((byte[]) stripped.value()).isEqualTo(utf8("ab"));
        assertThat(header(stripped.headers(), "__utf8.action")).isEqualTo("stripped");

        SinkRecord normalised = value("sanitiser.normalisation", "NFC").apply(sink(Schema.STRING_SCHEMA, "e\u0301"));
        assertThat(normalised.value()).isEqualTo("\u00E9");
        assertThat(header(normalised.headers(), "__utf8.action")).isEqualTo("normalised");
    }

    @Test
    void aContentRuleRejectsUnderReplaceToo() {
        assertThatThrownBy(() -> value("sanitiser.policy", "replace", "sanitiser.content.rules", "NUL:reject")
                        .apply(sink(Schema.STRING_SCHEMA, "a\u0000")))
                .hasMessage("NUL at value byte 1 (00)");
    }

    @Test
    void routeSendsASourceRecordToTheDeadLetterTopicWithTheDlqMdHeaders() {
        SourceRecord record = source(Schema.BYTES_SCHEMA, SURROGATE);

        SourceRecord routed = sourceValue("sanitiser.on.reject", "route").apply(record);

        assertThat(routed.topic()).isEqualTo("lines.dlq");
        assertThat(routed.kafkaPartition()).isNull();
        assertThat((byte[]) routed.value()).isSameAs(SURROGATE);
        assertThat(routed.valueSchema()).isEqualTo(Schema.BYTES_SCHEMA);
        assertThat((byte[]) routed.key()).isEqualTo(utf8("k"));
        assertThat(routed.timestamp()).isEqualTo(TIMESTAMP);
        assertThat(routed.sourcePartition()).isEqualTo(record.sourcePartition());
        assertThat(routed.sourceOffset()).isEqualTo(record.sourceOffset());
        assertThat(headers(routed.headers()))
                .containsExactly(
                        entry("trace", "t-1"),
                        entry("__utf8.rule", "SURROGATE"),
                        entry("__utf8.offset", "3"),
                        entry("__utf8.length", "1"),
                        entry("__utf8.errors", "3"),
                        entry("__utf8.part", "value"),
                        entry("__utf8.context", "61 62 63 [ED A0 80] 64"),
                        entry("__utf8.policy", "strict"),
                        entry("__utf8.source.topic", "lines"),
                        entry("__utf8.source.partition", "-1"),
                        entry("__utf8.source.offset", "-1"),
                        entry("__utf8.source.timestamp", Long.toString(TIMESTAMP)),
                        entry("__streams.errors.exception", "dev.utf8sanitiser.serdes.IllFormedTextException"),
                        entry("__streams.errors.message", "SURROGATE at value byte 3 (ED A0 80)"),
                        entry("__streams.errors.topic", "lines"),
                        entry("__streams.errors.partition", "-1"),
                        entry("__streams.errors.offset", "-1"));
        assertThat(record.headers().size())
                .as("the original record is untouched")
                .isEqualTo(1);
    }

    @Test
    void routeNamesTheKafkaPositionAMirroredRecordCameFrom() {
        SourceRecord routed = sourceValue(
                        "sanitiser.on.reject", "route",
                        "sanitiser.dlq.topic", "quarantine",
                        "sanitiser.header.type", "bytes")
                .apply(Records.mirrored(Schema.BYTES_SCHEMA, LATIN1));

        assertThat(routed.topic()).isEqualTo("quarantine");
        assertThat(routed.kafkaPartition())
                .as("the dead-letter topic may have fewer partitions")
                .isNull();
        assertThat(routed.headers().lastWithName("__utf8.rule").value()).isInstanceOf(byte[].class);
        assertThat(headers(routed.headers()))
                .contains(
                        entry("__utf8.source.topic", "orders"),
                        entry("__utf8.source.partition", "3"),
                        entry("__utf8.source.offset", "99"),
                        entry("__streams.errors.topic", "orders"));
    }

    @Test
    void routeOnASinkRecordRenamesItsTopicAndNamesWhereItWasConsumed() {
        SinkRecord routed = value("sanitiser.on.reject", "route")
                .apply(sink(Schema.BYTES_SCHEMA, SURROGATE)
                        .newRecord(
                                "renamed",
                                2,
                                Schema.BYTES_SCHEMA,
                                utf8("k"),
                                Schema.BYTES_SCHEMA,
                                SURROGATE,
                                TIMESTAMP));

        assertThat(routed.topic()).isEqualTo("renamed.dlq");
        assertThat(routed.kafkaPartition()).isEqualTo(2);
        assertThat(routed.originalTopic()).isEqualTo("orders");
        assertThat(headers(routed.headers()))
                .contains(
                        entry("__utf8.source.topic", "orders"),
                        entry("__utf8.source.partition", "2"),
                        entry("__utf8.source.offset", "41"));
    }

    @Test
    void headersCanBeWrittenAsBytesForTheByteArrayHeaderConverter() {
        SinkRecord fixed = value("sanitiser.policy", "replace", "sanitiser.header.type", "bytes")
                .apply(sink(Schema.BYTES_SCHEMA, LATIN1));

        assertThat(fixed.headers().lastWithName("__utf8.action").schema()).isEqualTo(Schema.BYTES_SCHEMA);
        assertThat((byte[]) fixed.headers().lastWithName("__utf8.action").value())
                .isEqualTo(utf8("replaced"));
        assertThat(fixed.headers().lastWithName("__utf8.errors").value()).isEqualTo(utf8("1"));
    }

    @Test
    void describesItselfAsConnectDocumentsPlugins() {
        Utf8Sanitise<SinkRecord> smt = value();

        assertThat(smt.version()).matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(smt.config().names())
                .contains("sanitiser.policy", "sanitiser.on.reject", "sanitiser.fields", "sanitiser.dlq.topic")
                .doesNotContain("sanitiser.input.topics", "sanitiser.check.key", "sanitiser.http.port");
        assertThat(Utf8Sanitise.OVERVIEW_DOC)
                .contains("dev.utf8sanitiser.connect.Utf8Sanitise$Key", "dev.utf8sanitiser.connect.Utf8Sanitise$Value");
    }

    @Test
    void valuesThatAreNeitherTextNorStructuresPassUnchecked() {
        SinkRecord record = sink(Schema.INT64_SCHEMA, 42L);

        assertThat(value().apply(record)).isSameAs(record);
    }

    private static byte[] sample(String name) {
        return Map.of("surrogate", SURROGATE, "cesu8", CESU8_PAIR, "latin1", LATIN1)
                .get(name);
    }
}
