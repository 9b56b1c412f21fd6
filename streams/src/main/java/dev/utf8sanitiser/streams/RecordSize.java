package dev.utf8sanitiser.streams;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * An upper bound of the bytes one record takes in a produce request and in the log, for comparing
 * with the producer's {@code max.request.size} and the topic's {@code max.message.bytes}.
 *
 * <p>Kafka's own estimate ({@code AbstractRecords.estimateSizeInBytesUpperBound}) lives in an
 * internal package, so this one is written from the record format (message format v2): a batch
 * header of 61 bytes, then the record, whose every variable-length integer is counted at its
 * largest (5 bytes, a timestamp delta 10) rather than its actual width. So it is never below
 * Kafka's estimate, which the producer checks against {@code max.request.size}, nor below the size
 * of a batch holding only this record, which the broker checks against {@code max.message.bytes}
 * (compression only makes that smaller). It is at most 30 bytes plus 10 per header above them.
 */
public final class RecordSize {
    /** The v2 batch header: base offset to record count. */
    static final int BATCH_OVERHEAD = 61;
    /** Length, attributes, timestamp delta, offset delta, key and value lengths, header count. */
    static final int RECORD_OVERHEAD = 5 + 1 + 10 + 5 + 5 + 5 + 5;
    /** A header's key length and value length. */
    static final int HEADER_OVERHEAD = 5 + 5;

    private RecordSize() {}

    public static long upperBound(byte[] key, byte[] value, Iterable<Header> headers) {
        long size = withoutHeaders(key, value);
        for (Header header : headers) {
            size += upperBound(header);
        }
        return size;
    }

    /**
     * The same for a record's own headers, read with {@link Headers#toArray()}: that gives a record
     * with none a shared empty array, where iterating them makes two iterators, on every record the
     * processor checks.
     */
    public static long upperBound(byte[] key, byte[] value, Headers headers) {
        long size = withoutHeaders(key, value);
        for (Header header : headers.toArray()) {
            size += upperBound(header);
        }
        return size;
    }

    private static long withoutHeaders(byte[] key, byte[] value) {
        return BATCH_OVERHEAD + RECORD_OVERHEAD + length(key) + length(value);
    }

    private static long upperBound(Header header) {
        return HEADER_OVERHEAD + utf8Length(header.key()) + length(header.value());
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    /** At least the UTF-8 length of {@code s} (a lone surrogate counts 3, Kafka writes 1). */
    private static int utf8Length(String s) {
        int length = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            length += c < 0x80 ? 1 : c < 0x800 ? 2 : 3; // a surrogate pair: 3 + 3 >= 4
        }
        return length;
    }
}
