package dev.utf8sanitiser.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.internal.AbstractRecords;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordSize} against Kafka's own record format: its estimate (which the producer checks
 * against {@code max.request.size}) and the size of a real batch holding only the record (which
 * the broker checks against {@code max.message.bytes}). Both are internal to Kafka, so the main
 * code cannot call them; the tests can.
 */
class RecordSizeTest {

    @Property(tries = 300)
    void isNeverBelowKafkasEstimateNorTheBatchOfTheRecordAlone(
            @ForAll("bytesOrNull") byte[] key,
            @ForAll("bytesOrNull") byte[] value,
            @ForAll @Size(max = 20) List<@From("headers") Header> headerList) {
        Header[] headers = headerList.toArray(Header[]::new);
        long bound = RecordSize.upperBound(key, value, new RecordHeaders(headers));

        int estimate = AbstractRecords.estimateSizeInBytesUpperBound(
                RecordBatch.CURRENT_MAGIC_VALUE, CompressionType.NONE, key, value, headers);
        MemoryRecords batch = MemoryRecords.withRecords(
                Compression.NONE, new SimpleRecord(System.currentTimeMillis(), key, value, headers));
        assertThat(bound).isGreaterThanOrEqualTo(estimate).isGreaterThanOrEqualTo(batch.sizeInBytes());
    }

    @Property(tries = 300)
    void aRecordsHeadersCountAsTheSameHeadersInAList(
            @ForAll("bytesOrNull") byte[] key,
            @ForAll("bytesOrNull") byte[] value,
            @ForAll @Size(max = 20) List<@From("headers") Header> headerList) {
        RecordHeaders headers = new RecordHeaders(headerList.toArray(Header[]::new));

        assertThat(RecordSize.upperBound(key, value, headers))
                .isEqualTo(RecordSize.upperBound(key, value, (Iterable<Header>) headerList));
    }

    @Test
    void aRecordWithoutHeadersIsItsBytesAndTheFixedOverhead() {
        long bound = RecordSize.upperBound(new byte[3], new byte[100], new RecordHeaders());

        assertThat(bound).isEqualTo(RecordSize.BATCH_OVERHEAD + RecordSize.RECORD_OVERHEAD + 103);
    }

    @Provide
    Arbitrary<byte[]> bytesOrNull() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(300).injectNull(0.1);
    }

    @Provide
    Arbitrary<Header> headers() {
        // Keys in any script, and lone surrogates, which Kafka writes as one byte ('?').
        Arbitrary<String> keys = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(30),
                Arbitraries.strings().withCharRange('\uD800', '\uDFFF').ofMaxLength(4));
        Arbitrary<byte[]> values =
                Arbitraries.bytes().array(byte[].class).ofMaxSize(200).injectNull(0.2);
        return Combinators.combine(keys, values).as(RecordHeader::new);
    }
}
