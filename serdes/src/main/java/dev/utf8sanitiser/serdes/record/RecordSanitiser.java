package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Sanitised;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentFinding;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentResult;
import dev.utf8sanitiser.core.content.ContentRule;
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
    private final ContentPolicy content;
    private final boolean checkKey;
    private final List<String> checkHeaders;

    public RecordSanitiser(Policy policy, ContentPolicy content, boolean checkKey, List<String> checkHeaders) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.content = Objects.requireNonNull(content, "content");
        this.checkKey = checkKey;
        this.checkHeaders = List.copyOf(checkHeaders);
    }

    /** UTF-8 only, no content rules. */
    public RecordSanitiser(Policy policy, boolean checkKey, List<String> checkHeaders) {
        this(policy, ContentPolicy.none(), checkKey, checkHeaders);
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
        if (outcome.rejected) {
            return new Decision.DeadLetter(outcome.first, outcome.errors);
        }
        if (!outcome.changed) {
            return new Decision.Pass(); // only findings whose action keeps the text
        }
        Headers forwarded = headersChanged ? new RecordHeaders(newHeaders) : copy(headers);
        return new Decision.Changed(newKey, newValue, forwarded, outcome.action(), outcome.errors);
    }

    private static Headers copy(Headers headers) {
        return new RecordHeaders(headers.toArray());
    }

    /** What the parts of one record came to. */
    private final class Outcome {
        Finding first;
        int errors;
        boolean rejected;
        boolean changed;
        boolean replaced;
        boolean repaired;
        boolean stripped;
        boolean normalised;

        /**
         * Applies the UTF-8 policy, then the content rules, to one part; returns its bytes to
         * forward (the same array when unchanged).
         */
        byte[] check(Part part, byte[] bytes) {
            Sanitised result = Utf8Sanitiser.sanitise(bytes, policy);
            if (!result.inputWellFormed()) {
                errors += result.errors().size() + result.repairs().size();
                if (first == null) {
                    // The input's first error is the first ill-formed place, repaired or not.
                    first = Finding.of(part, Utf8Validator.firstError(bytes).orElseThrow(), bytes);
                }
                if (policy == Policy.STRICT) {
                    rejected = true;
                    return bytes; // STRICT judges only; content rules need well-formed text
                }
                changed = true;
                replaced |= result.replacements() > 0;
                repaired |= !result.repairs().isEmpty();
            }
            byte[] text = result.output();
            ContentResult checked = content.apply(text);
            if (checked.findings().isEmpty()) {
                return text;
            }
            errors += checked.findings().size();
            for (ContentFinding finding : checked.findings()) {
                switch (finding.action()) {
                    case REJECT -> {
                        if (!rejected) {
                            // Offsets count in the text the rules saw: the part after any repair
                            // or replacement, which is the stored part whenever it was well-formed.
                            first = new Finding(
                                    part,
                                    finding.rule().name(),
                                    finding.offset(),
                                    finding.length(),
                                    finding.length(),
                                    text);
                        }
                        rejected = true;
                    }
                    case STRIP -> stripped = true;
                    case REPLACE -> {
                        if (finding.rule() == ContentRule.NOT_NORMALISED) {
                            normalised = true;
                        } else {
                            replaced = true;
                        }
                    }
                    default -> {}
                }
            }
            changed |= checked.changed();
            return checked.output();
        }

        /** The {@code __utf8.action} header: the most significant change made. */
        String action() {
            return replaced ? "replaced" : repaired ? "repaired" : stripped ? "stripped" : "normalised";
        }
    }
}
