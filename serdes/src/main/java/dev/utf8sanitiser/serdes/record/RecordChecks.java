package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.core.Outcome;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Sanitised;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentFinding;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentResult;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * What the parts of one record came to, as a {@link ValueFormat} and {@link RecordSanitiser} report
 * it: the first finding, the number of findings, and which changes were made. One per record; not
 * shared between threads.
 *
 * <p>The UTF-8 policy applies first, then the content rules, to each piece of text: a whole part
 * ({@link #text}) or one string inside a value ({@link #string}).
 */
public final class RecordChecks {
    private final Policy policy;
    private final ContentPolicy content;
    private Finding first;
    private boolean recordLevel;
    private int errors;
    private boolean rejected;
    private boolean changed;
    private boolean replaced;
    private boolean repaired;
    private boolean stripped;
    private boolean normalised;

    RecordChecks(Policy policy, ContentPolicy content) {
        this.policy = policy;
        this.content = content;
    }

    public Policy policy() {
        return policy;
    }

    /**
     * Whether a well-formed string passes without a look of its own (no content rules apply), so a
     * format may check all of a value's strings at once first and look at each only if one is not.
     */
    public boolean wellFormedPassesUnseen() {
        return content == ContentPolicy.none();
    }

    /**
     * Checks a whole part as text; returns its bytes to send on (the same array when unchanged).
     * Findings name no field.
     */
    public byte[] text(Part part, byte[] bytes) {
        return text(part, bytes, offset -> Optional.empty());
    }

    /**
     * Checks a whole part as text, naming the field each finding falls in (a JSON document checked
     * as one text); returns its bytes to send on (the same array when unchanged).
     */
    public byte[] text(Part part, byte[] bytes, LongFunction<Optional<String>> fieldAt) {
        return text(part, bytes, 0, fieldAt);
    }

    /**
     * Checks {@code bytes[from, end)} as text: a document after a framing prefix that is not text
     * (Confluent's magic byte and schema id before JSON). Offsets, and those {@code fieldAt} is asked
     * for, count from {@code bytes[0]}; the prefix is sent on as it was.
     *
     * @return the part's bytes to send on: the same array when unchanged, else the prefix and the
     *     new text
     */
    public byte[] text(Part part, byte[] bytes, int from, LongFunction<Optional<String>> fieldAt) {
        if (wellFormedPassesUnseen() && Utf8Validator.isWellFormed(bytes, from, bytes.length - from)) {
            return bytes; // the common case, as in string(): one validation, nothing made
        }
        Sanitised result = sanitise(bytes, from, bytes.length - from);
        if (!result.inputWellFormed()) {
            errors += result.errorCount() + result.repairCount();
            if (first == null) {
                // The input's first error is the first ill-formed place, repaired or not.
                Utf8Error error = Utf8Validator.firstError(bytes, from, bytes.length - from)
                        .orElseThrow();
                first = illFormed(part, fieldAt.apply(from + error.offset()), error, bytes, from, bytes.length);
            }
            if (policy == Policy.STRICT) {
                rejected = true;
                return bytes; // STRICT judges only; content rules need well-formed text
            }
            changed = true;
            replaced |= result.replacements() > 0;
            repaired |= result.repairCount() > 0;
        }
        byte[] text = result.output();
        if (from == 0) {
            // Offsets count in the text the rules saw: the part after any repair or replacement,
            // which is the stored part whenever it was well-formed.
            return content(part, text, 0, text, fieldAt);
        }
        byte[] whole = result.inputWellFormed() ? bytes : prefixed(bytes, from, text);
        byte[] out = content(part, text, from, whole, at -> fieldAt.apply(from + at));
        return out == text ? whole : prefixed(bytes, from, out);
    }

    /** {@code bytes[0, from)} followed by {@code text}. */
    private static byte[] prefixed(byte[] bytes, int from, byte[] text) {
        byte[] whole = Arrays.copyOf(bytes, from + text.length);
        System.arraycopy(text, 0, whole, from, text.length);
        return whole;
    }

    /**
     * Checks one string inside a value, {@code value[offset, offset + length)}, at {@code path}.
     * Findings carry offsets within the whole value and the whole value as context.
     *
     * @return the string's new bytes, or {@code null} when it stays as it is
     */
    public byte[] string(Part part, FieldPath path, byte[] value, int offset, int length) {
        if (wellFormedPassesUnseen() && Utf8Validator.isWellFormed(value, offset, length)) {
            return null; // the common case: nothing to copy, no path to render
        }
        Sanitised result = sanitise(value, offset, length);
        // The path is rendered only for the finding that describes the record: rendering one may
        // cost a walk of the value, and a record may hold a string for every two of its bytes.
        if (!result.inputWellFormed()) {
            errors += result.errorCount() + result.repairCount();
            if (first == null) {
                Utf8Error local =
                        Utf8Validator.firstError(value, offset, length).orElseThrow();
                first = illFormed(part, field(path), local, value, offset, offset + length);
            }
            if (policy == Policy.STRICT) {
                rejected = true;
                return null;
            }
            changed = true;
            replaced |= result.replacements() > 0;
            repaired |= result.repairCount() > 0;
        }
        byte[] text = result.output();
        boolean wellFormedAsStored = result.inputWellFormed();
        // Content findings in a string that was stored well-formed point into the stored value;
        // in a fixed one they can only point into the fixed string.
        byte[] context = wellFormedAsStored ? value : text;
        int shift = wellFormedAsStored ? offset : 0;
        byte[] out = content(part, text, shift, context, at -> field(path));
        if (out == text) {
            return result.inputWellFormed() ? null : text;
        }
        return out;
    }

    /**
     * A finding about the record as a whole ({@code NOT_AVRO}, {@code UNKNOWN_SCHEMA},
     * {@code MALFORMED_AVRO}, {@code INVALID_JSON}): the record is rejected under every policy, and
     * this finding describes it, whatever was found before.
     */
    public void reject(Finding finding) {
        errors++;
        rejected = true;
        if (!recordLevel) {
            first = finding;
            recordLevel = true;
        }
    }

    /**
     * Fixing made two keys of one map or object equal (two lone surrogates that both became U+FFFD,
     * a CESU-8 pair repaired into a key that was already there, two spellings one normalisation
     * form): sent on, the fixed value would lose an entry, or hold a key twice. The record is
     * rejected instead, as under {@code strict}, described by {@code key} ({@link #changedKey})
     * unless a rejection already describes it. Keys that were equal as they came are not this.
     */
    public void keysCollide(Finding key) {
        if (!rejected) {
            first = key;
        }
        rejected = true;
    }

    /**
     * What changed in the map key {@code value[offset, offset + length)} at {@code path} as it came:
     * its first ill-formed place, or for a well-formed key the first content rule that changed it,
     * with the detail that keys would collide there.
     */
    public Finding changedKey(Part part, FieldPath path, byte[] value, int offset, int length) {
        Optional<String> field = field(path);
        String detail = "keys would collide at " + DeadLetterAnnotation.capped(field.orElse("")) + " once fixed";
        Optional<Utf8Error> error = Utf8Validator.firstError(value, offset, length);
        if (error.isPresent()) {
            return illFormed(part, field, error.get(), value, offset, offset + length)
                    .withDetail(detail);
        }
        ContentResult checked = content.apply(Arrays.copyOfRange(value, offset, offset + length), true, 1);
        ContentFinding change =
                checked.findings().isEmpty() ? null : checked.findings().get(0);
        return change == null
                ? new Finding(part, field, DeadLetterRule.NOT_NORMALISED, offset, 0, 0, value).withDetail(detail)
                : new Finding(
                                part,
                                field,
                                DeadLetterRule.of(change.rule()),
                                offset + change.offset(),
                                change.length(),
                                change.length(),
                                value)
                        .withDetail(detail);
    }

    /**
     * An ill-formed place a format finds itself (an escaped lone surrogate in JSON): counted as an
     * error; under STRICT the record is rejected, under REPLACE and REPAIR the caller fixes it.
     *
     * @return whether the caller should fix it
     */
    public boolean illFormed(Finding finding) {
        return illFormed(() -> finding);
    }

    /**
     * As {@link #illFormed(Finding)}, making the finding only if it is the one that describes the
     * record: naming its field may cost a parse of the whole value.
     */
    public boolean illFormed(Supplier<Finding> finding) {
        errors++;
        if (first == null) {
            first = finding.get();
        }
        if (policy == Policy.STRICT) {
            rejected = true;
            return false;
        }
        changed = true;
        replaced = true;
        return true;
    }

    private byte[] content(Part part, byte[] text, int shift, byte[] context, LongFunction<Optional<String>> fieldAt) {
        // No finding kept: the count, the first rejection and the actions are exact without them,
        // and a record of a million NULs needs no million objects (docs/dlq.md, "What is bounded").
        if (content == ContentPolicy.none()) {
            return text;
        }
        ContentResult checked = content.apply(text, true, 0);
        if (checked.count() == 0) {
            return text;
        }
        errors += checked.count();
        ContentFinding rejection = checked.firstRejected();
        if (rejection != null) {
            if (!rejected) {
                first = new Finding(
                        part,
                        fieldAt.apply(rejection.offset()),
                        DeadLetterRule.of(rejection.rule()),
                        rejection.offset() + shift,
                        rejection.length(),
                        rejection.length(),
                        context);
            }
            rejected = true;
        }
        stripped |= checked.stripped();
        replaced |= checked.replaced();
        normalised |= checked.normalised();
        changed |= checked.changed();
        return checked.output();
    }

    /**
     * The policy applied with counts only: the first error is found again when needed, and a list of
     * every error would cost more heap than the record (an error per byte, when all are ill-formed).
     */
    private Sanitised sanitise(byte[] bytes, int offset, int length) {
        return Utf8Sanitiser.sanitise(bytes, offset, length, policy, 0);
    }

    private static Optional<String> field(FieldPath path) {
        String rendered = path.render();
        return rendered.isEmpty() ? Optional.empty() : Optional.of(rendered);
    }

    /** The bracket holds the run of adjacent ill-formed subparts, not past the text's end. */
    private static Finding illFormed(
            Part part, Optional<String> field, Utf8Error local, byte[] bytes, int textStart, int textEnd) {
        int from = textStart + (int) local.offset();
        int runEnd = DeadLetterAnnotation.illFormedRunEnd(bytes, from, textEnd);
        return new Finding(part, field, DeadLetterRule.of(local.rule()), from, local.length(), runEnd - from, bytes);
    }

    Finding first() {
        return first;
    }

    int errors() {
        return errors;
    }

    boolean rejected() {
        return rejected;
    }

    boolean changed() {
        return changed;
    }

    /** The most significant change made, for a part or record that {@link #changed()}. */
    Outcome outcome() {
        return replaced
                ? Outcome.REPLACED
                : repaired ? Outcome.REPAIRED : stripped ? Outcome.STRIPPED : Outcome.NORMALISED;
    }
}
