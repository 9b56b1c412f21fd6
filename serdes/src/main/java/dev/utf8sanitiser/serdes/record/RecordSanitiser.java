package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Header;

/**
 * Applies the policy to the parts of one record: the value always (in its {@link ValueFormat}), the
 * key and named headers, as text, when configured. Pure apart from the format's schema lookups: no
 * Kafka Streams or Connect types, so every host shares it, and every host gets its {@link Decision}
 * from here.
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
    /**
     * Text values, no content rules and no header to check: a record whose value (and key, when
     * checked) is well-formed passes on its validations alone.
     */
    private final boolean wellFormedTextPasses;

    public RecordSanitiser(
            Policy policy, ContentPolicy content, ValueFormat format, boolean checkKey, List<String> checkHeaders) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.content = Objects.requireNonNull(content, "content");
        this.format = Objects.requireNonNull(format, "format");
        this.checkKey = checkKey;
        this.checkHeaders = List.copyOf(checkHeaders);
        this.wellFormedTextPasses =
                format == ValueFormat.TEXT && content == ContentPolicy.none() && this.checkHeaders.isEmpty();
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
     * The decision for a whole record.
     *
     * @throws dev.utf8sanitiser.registry.RegistryUnavailableException when the value's schema
     *     cannot be fetched now: never a verdict, the host must retry or stop
     */
    public Decision<RecordParts> decide(byte[] key, byte[] value, Iterable<Header> headers) {
        if (value == null) {
            return Decision.pass(); // a tombstone deletes; it carries no text to check
        }
        if (wellFormedTextPasses
                && Utf8Validator.isWellFormed(value)
                && (!checkKey || key == null || Utf8Validator.isWellFormed(key))) {
            // The common case, with nothing made: the path below decides the same (tested), but its
            // checks object and the fixed record's supplier, kept or not by escape analysis from
            // one JIT to the next, cost the processor about 30 ns a record at 100 B, more than
            // validating it (docs/benchmarks.md).
            return Decision.pass();
        }
        RecordChecks checks = new RecordChecks(policy, content);
        byte[] newValue = format.check(Part.VALUE, value, checks);
        byte[] newKey = checkKey && key != null ? checks.text(Part.KEY, key) : key;
        // With no header to check, the list is made only for a changed record, not for every one.
        List<Header> checkedHeaders = checkHeaders.isEmpty() ? null : checkHeaders(headers, checks);
        return decision(
                checks,
                () -> new RecordParts(
                        newKey, newValue, checkedHeaders != null ? checkedHeaders : checkHeaders(headers, checks)));
    }

    /** The headers, those named by the configuration checked as text; the others as they are. */
    private List<Header> checkHeaders(Iterable<Header> headers, RecordChecks checks) {
        List<Header> newHeaders = new ArrayList<>();
        for (Header header : headers) {
            if (header.value() != null && checkHeaders.contains(header.key())) {
                byte[] checked = checks.text(Part.header(header.key()), header.value());
                newHeaders.add(checked == header.value() ? header : new PlainHeader(header.key(), checked));
            } else {
                newHeaders.add(header);
            }
        }
        return newHeaders;
    }

    /**
     * The decision for one part on its own, read in the value format: what a serde for keys or values
     * needs. Key and header settings do not apply.
     */
    public Decision<byte[]> decidePart(Part part, byte[] bytes) {
        RecordChecks checks = new RecordChecks(policy, content);
        byte[] checked = format.check(part, bytes, checks);
        return decision(checks, () -> checked);
    }

    /**
     * The decision for one part a host has already parsed into its own objects (a Connect {@code
     * Struct}, {@code Map}, {@code List} or {@code String}): {@code walk} reports each string it
     * checks to the {@link RecordChecks} it is given, exactly as a {@link ValueFormat} does, and
     * returns the value to send on (the same object when nothing changed). Key and header settings
     * do not apply.
     */
    public <T> Decision<T> decideParsed(Function<RecordChecks, T> walk) {
        RecordChecks checks = new RecordChecks(policy, content);
        T checked = walk.apply(checks);
        return decision(checks, () -> checked);
    }

    /**
     * The one place findings become a decision, whatever the host and the shape of the value; the
     * fixed value is made only for a change, so a record that passes copies nothing.
     */
    private static <T> Decision<T> decision(RecordChecks checks, Supplier<T> fixed) {
        if (checks.errors() == 0) {
            return Decision.pass();
        }
        if (checks.rejected()) {
            return new Decision.DeadLetter<>(checks.first(), checks.errors());
        }
        if (!checks.changed()) {
            return Decision.pass(); // only findings whose action keeps the text
        }
        return new Decision.Changed<>(
                fixed.get(), checks.outcome(), checks.errors(), Optional.ofNullable(checks.first()));
    }
}
