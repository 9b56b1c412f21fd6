package dev.utf8sanitiser.processor.streams;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Sanitised;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.core.Utf8Validator;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Applies the policy to the parts of one record: the value always, the key and named headers when
 * configured. Pure: no Kafka Streams types, so it is tested on its own and shared by every host.
 *
 * <p>Parts are checked in the order value, key, headers (in configured order, each occurrence of a
 * repeated name); the first error in that order is the one a dead-letter record describes.
 */
public final class RecordSanitiser {
    private final Policy policy;
    private final boolean checkKey;
    private final List<String> checkHeaders;

    public RecordSanitiser(Policy policy, boolean checkKey, List<String> checkHeaders) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.checkKey = checkKey;
        this.checkHeaders = List.copyOf(checkHeaders);
    }

    public Policy policy() {
        return policy;
    }

    public Decision decide(byte[] key, byte[] value, Headers headers) {
        if (value == null) {
            return new Decision.Pass(); // a tombstone deletes; it carries no text to check
        }
        Outcome outcome = new Outcome();
        byte[] newValue = outcome.check(Part.VALUE, value);
        byte[] newKey = checkKey && key != null ? outcome.check(Part.KEY, key) : key;
        List<Header> newHeaders = new ArrayList<>();
        boolean headersChanged = false;
        for (Header header : headers) {
            if (header.value() != null && checkHeaders.contains(header.key())) {
                byte[] checked = outcome.check(Part.header(header.key()), header.value());
                headersChanged |= checked != header.value();
                newHeaders.add(checked == header.value() ? header : new RecordHeader(header.key(), checked));
            } else {
                newHeaders.add(header);
            }
        }
        if (outcome.errors == 0) {
            return new Decision.Pass();
        }
        if (policy == Policy.STRICT) {
            return new Decision.DeadLetter(outcome.first, outcome.errors);
        }
        Headers forwarded = headersChanged ? new RecordHeaders(newHeaders) : copy(headers);
        return new Decision.Changed(
                newKey, newValue, forwarded, outcome.replacements > 0 ? "replaced" : "repaired", outcome.errors);
    }

    private static Headers copy(Headers headers) {
        return new RecordHeaders(headers.toArray());
    }

    /** What the parts of one record came to. */
    private final class Outcome {
        Finding first;
        int errors;
        int replacements;

        /** Sanitises one part; returns its bytes to forward (the same array when unchanged). */
        byte[] check(Part part, byte[] bytes) {
            Sanitised result = Utf8Sanitiser.sanitise(bytes, policy);
            if (result.inputWellFormed()) {
                return bytes;
            }
            if (first == null) {
                // The input's first error is the first ill-formed place, repaired or not.
                first = Finding.of(part, Utf8Validator.firstError(bytes).orElseThrow(), bytes);
            }
            errors += result.errors().size() + result.repairs().size();
            replacements += result.replacements();
            return result.output();
        }
    }
}
