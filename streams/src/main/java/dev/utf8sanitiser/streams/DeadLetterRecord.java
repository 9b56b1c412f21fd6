package dev.utf8sanitiser.streams;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.TraceHeaders;
import java.util.List;
import org.apache.kafka.common.header.Header;

/**
 * A dead-letter record as it will be written: the original key and value byte-exact with the full
 * annotation of docs/dlq.md; or, when that would be larger than the dead-letter topic takes, the
 * brief annotation; or, when even that is too large, a placeholder with no key, no value and of the
 * original headers only the trace-context ones ({@link TraceHeaders}) that names where the record
 * is in the input; or, when those make it too large still, a placeholder without them. A send the topic refuses fails the
 * transaction, and the restarted application would read the same record again, for ever.
 *
 * @param rule the rule the record is counted under: the verdict's, or {@code RECORD_TOO_LARGE} for
 *     a placeholder
 */
public record DeadLetterRecord(byte[] key, byte[] value, List<Header> headers, DeadLetterRule rule) {

    /**
     * The most the dead-letter topic {@code topic} can say of this record within {@code limit} bytes.
     *
     * @throws IllegalStateException the topic takes less than a placeholder: no record of any kind
     *     could be dead-lettered, so the application must stop rather than drop it
     */
    public static DeadLetterRecord fitting(
            byte[] key,
            byte[] value,
            Iterable<Header> original,
            Decision.DeadLetter<?> verdict,
            DeadLetterAnnotation annotation,
            Policy policy,
            DeadLetterAnnotation.Source source,
            long timestamp,
            String topic,
            int limit) {
        List<Header> full =
                annotation.annotate(original, verdict, DeadLetterAnnotation.Detail.FULL, policy, source, timestamp);
        long size = RecordSize.upperBound(key, value, full);
        if (size <= limit) {
            return new DeadLetterRecord(key, value, full, verdict.rule());
        }
        List<Header> brief =
                annotation.annotate(original, verdict, DeadLetterAnnotation.Detail.BRIEF, policy, source, timestamp);
        if (RecordSize.upperBound(key, value, brief) <= limit) {
            return new DeadLetterRecord(key, value, brief, verdict.rule());
        }
        // Payload and other headers go first; the trace context only if even so it does not fit.
        List<Header> trace = TraceHeaders.of(original);
        if (!trace.isEmpty()) {
            List<Header> traced = annotation.placeholder(trace, verdict, size, limit, policy, source, timestamp);
            if (RecordSize.upperBound(null, null, traced) <= limit) {
                return new DeadLetterRecord(null, null, traced, DeadLetterRule.RECORD_TOO_LARGE);
            }
        }
        List<Header> placeholder = annotation.placeholder(verdict, size, limit, policy, source, timestamp);
        long placeholderSize = RecordSize.upperBound(null, null, placeholder);
        if (placeholderSize > limit) {
            throw new IllegalStateException("the dead-letter topic " + topic + " takes at most " + limit
                    + " bytes, less than the " + placeholderSize + " of a placeholder record: raise its"
                    + " max.message.bytes (and the producer's max.request.size)");
        }
        return new DeadLetterRecord(null, null, placeholder, DeadLetterRule.RECORD_TOO_LARGE);
    }
}
