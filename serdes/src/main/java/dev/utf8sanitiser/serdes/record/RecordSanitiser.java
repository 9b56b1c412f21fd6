package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Applies the policy to the parts of one record: the value always (in its {@link ValueFormat}), the
 * key and named headers, as text, when configured. Pure apart from the format's schema lookups: no
 * Kafka Streams or Connect types, so every host shares it.
 *
 * <p>Parts are checked in the order value, key, headers (in configured order, each occurrence of a
 * repeated name); the first error in that order is the one a dead-letter record describes, unless
 * the value is rejected as a whole ({@code NOT_AVRO}, {@code MALFORMED_AVRO}, ...).
 */
public final class RecordSanitiser {
    private final Policy policy;
    private final ContentPolicy content;
    private final ValueFormat format;
    private final boolean checkKey;
    private final List<String> checkHeaders;

    public RecordSanitiser(
            Policy policy, ContentPolicy content, ValueFormat format, boolean checkKey, List<String> checkHeaders) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.content = Objects.requireNonNull(content, "content");
        this.format = Objects.requireNonNull(format, "format");
        this.checkKey = checkKey;
        this.checkHeaders = List.copyOf(checkHeaders);
    }

    /** Text values. */
    public RecordSanitiser(Policy policy, ContentPolicy content, boolean checkKey, List<String> checkHeaders) {
        this(policy, content, ValueFormat.TEXT, checkKey, checkHeaders);
    }

    /** Text values, UTF-8 only, no content rules. */
    public RecordSanitiser(Policy policy, boolean checkKey, List<String> checkHeaders) {
        this(policy, ContentPolicy.none(), checkKey, checkHeaders);
    }

    public Policy policy() {
        return policy;
    }

    /**
     * @throws dev.utf8sanitiser.serdes.registry.RegistryUnavailableException when the value's schema
     *     cannot be fetched now: never a verdict, the host must retry or stop
     */
    public Decision decide(byte[] key, byte[] value, Headers headers) {
        if (value == null) {
            return new Decision.Pass(); // a tombstone deletes; it carries no text to check
        }
        RecordChecks checks = new RecordChecks(policy, content);
        byte[] newValue = format.check(Part.VALUE, value, checks);
        byte[] newKey = checkKey && key != null ? checks.text(Part.KEY, key) : key;
        List<Header> newHeaders = new ArrayList<>();
        boolean headersChanged = false;
        for (Header header : headers) {
            if (header.value() != null && checkHeaders.contains(header.key())) {
                byte[] checked = checks.text(Part.header(header.key()), header.value());
                headersChanged |= checked != header.value();
                newHeaders.add(checked == header.value() ? header : new RecordHeader(header.key(), checked));
            } else {
                newHeaders.add(header);
            }
        }
        if (checks.errors() == 0) {
            return new Decision.Pass();
        }
        if (checks.rejected()) {
            return new Decision.DeadLetter(checks.first(), checks.errors());
        }
        if (!checks.changed()) {
            return new Decision.Pass(); // only findings whose action keeps the text
        }
        Headers forwarded = headersChanged ? new RecordHeaders(newHeaders) : copy(headers);
        return new Decision.Changed(
                newKey, newValue, forwarded, checks.action(), checks.errors(), Optional.ofNullable(checks.first()));
    }

    /**
     * The decision for one part on its own, read in the value format: what a serde for keys or values
     * needs. Key and header settings do not apply.
     */
    public Decision decidePart(Part part, byte[] bytes) {
        RecordChecks checks = new RecordChecks(policy, content);
        byte[] checked = format.check(part, bytes, checks);
        if (checks.errors() == 0) {
            return new Decision.Pass();
        }
        if (checks.rejected()) {
            return new Decision.DeadLetter(checks.first(), checks.errors());
        }
        if (!checks.changed()) {
            return new Decision.Pass();
        }
        boolean isKey = part.equals(Part.KEY);
        return new Decision.Changed(
                isKey ? checked : null,
                isKey ? null : checked,
                new RecordHeaders(),
                checks.action(),
                checks.errors(),
                Optional.ofNullable(checks.first()));
    }

    private static Headers copy(Headers headers) {
        return new RecordHeaders(headers.toArray());
    }
}
