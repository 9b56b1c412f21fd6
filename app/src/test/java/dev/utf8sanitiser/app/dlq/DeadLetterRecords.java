package dev.utf8sanitiser.app.dlq;

import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/** A record of {@code orders.dlq}, partition 0, as a dlq command reads it, for tests of the tools. */
final class DeadLetterRecords {
    private DeadLetterRecords() {}

    /** The record at {@code offset} with no key, {@code value} and {@code headers}, written at 1000 ms. */
    static DeadLetter at(long offset, byte[] value, List<Header> headers) {
        return DeadLetter.of(new ConsumerRecord<>(
                "orders.dlq",
                0,
                offset,
                1000L,
                TimestampType.CREATE_TIME,
                -1,
                value.length,
                null,
                value,
                new RecordHeaders(headers.toArray(Header[]::new)),
                Optional.empty()));
    }
}
