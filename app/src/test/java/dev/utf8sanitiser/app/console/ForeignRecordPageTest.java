package dev.utf8sanitiser.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** Another tool's dead letter in the console: its producer, error and source, on its page and in the list. */
class ForeignRecordPageTest {
    private static DeadLetter connect(String partition) {
        List<Header> headers = List.of(
                PlainHeader.of("trace-id", "t1"),
                PlainHeader.of("__connect.errors.topic", "orders"),
                PlainHeader.of("__connect.errors.partition", partition),
                PlainHeader.of("__connect.errors.offset", "12"),
                PlainHeader.of("__connect.errors.connector.name", "sink"),
                PlainHeader.of("__connect.errors.task.id", "0"),
                PlainHeader.of("__connect.errors.stage", "VALUE_CONVERTER"),
                PlainHeader.of("__connect.errors.class.name", "org.apache.kafka.connect.json.JsonConverter"),
                PlainHeader.of(
                        "__connect.errors.exception.class.name", "org.apache.kafka.connect.errors.DataException"),
                PlainHeader.of("__connect.errors.exception.message", "bad <script>x</script>"));
        byte[] value = "{not json".getBytes(StandardCharsets.UTF_8);
        return DeadLetter.of(new ConsumerRecord<>(
                "t.dlq",
                0,
                3,
                1000L,
                TimestampType.CREATE_TIME,
                -1,
                value.length,
                null,
                value,
                new RecordHeaders(headers.toArray(Header[]::new)),
                Optional.empty()));
    }

    @Test
    void theRecordPageAndTheListRowShowProducerErrorAndSource() {
        DeadLetter record = connect("1");

        String page = RecordPage.render(record, 8, Map.of());
        TopicView.Summary row = TopicView.Summary.of(record);

        assertThat(page)
                .contains("<dt>producer</dt><dd>kafka-connect</dd>")
                .contains("<dt>source</dt><dd>orders-1@12</dd>")
                .contains("<dt>error</dt><dd>org.apache.kafka.connect.errors.DataException</dd>")
                .contains("bad &lt;script&gt;")
                .doesNotContain("<script>");
        assertThat(row.rule()).isEqualTo("kafka-connect: org.apache.kafka.connect.errors.DataException");
        assertThat(row.source()).isEqualTo("orders-1@12");
    }

    @Test
    void theRecordsListRowShowsProducerErrorAndSourceToo() {
        RecordRow row = RecordRow.of(connect("1"), false);

        assertThat(row.rule()).isEqualTo("kafka-connect: org.apache.kafka.connect.errors.DataException");
        assertThat(row.source()).isEqualTo("orders-1@12");
        assertThat(row.field()).isEmpty();
        assertThat(RecordRow.of(connect("one"), false).rule()).isEqualTo("kafka-connect: (refused)");
    }

    @Test
    void aRefusedRecordSaysWhy() {
        DeadLetter record = connect("one");

        assertThat(RecordPage.render(record, 8, Map.of()))
                .contains("<dt>producer</dt><dd>kafka-connect</dd>")
                .contains("__connect.errors.partition is not a number");
        assertThat(TopicView.Summary.of(record).rule()).isEqualTo("kafka-connect: (refused)");
        assertThat(TopicView.Summary.of(record).source()).isEmpty();
    }
}
