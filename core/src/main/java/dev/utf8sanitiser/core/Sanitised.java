package dev.utf8sanitiser.core;

import java.util.List;
import java.util.Objects;

/**
 * The result of applying a {@link Policy} to bytes: the output and a report of what happened where,
 * so a host can put it in headers and metrics.
 *
 * @param output the bytes to send on: the input array itself when it was well-formed, and under
 *     {@link Policy#STRICT} always (strict never changes bytes; it only judges them)
 * @param policy the policy applied
 * @param errors the ill-formed maximal subparts, in order, with input offsets: all of them under
 *     STRICT and REPLACE (under REPAIR, those left after the repairs, each became U+FFFD), or the
 *     first ones only when the caller capped the report ({@link Utf8Sanitiser#sanitise(byte[], int,
 *     int, Policy, int)})
 * @param repairs the repairs, in order, with input offsets; empty unless REPAIR; capped like {@code
 *     errors}
 * @param errorCount how many errors there were, exactly, whether reported or not
 * @param repairCount how many repairs there were, exactly
 */
public record Sanitised(
        byte[] output, Policy policy, List<Utf8Error> errors, List<Repair> repairs, int errorCount, int repairCount) {
    public Sanitised {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(policy, "policy");
        errors = List.copyOf(errors);
        repairs = List.copyOf(repairs);
        if (errorCount < errors.size() || repairCount < repairs.size()) {
            throw new IllegalArgumentException("fewer counted than reported: " + errorCount + " errors, "
                    + errors.size() + " reported; " + repairCount + " repairs, " + repairs.size() + " reported");
        }
    }

    /** A complete report: every error and repair listed. */
    public Sanitised(byte[] output, Policy policy, List<Utf8Error> errors, List<Repair> repairs) {
        this(output, policy, errors, repairs, errors.size(), repairs.size());
    }

    public boolean inputWellFormed() {
        return errorCount == 0 && repairCount == 0;
    }

    /** Whether {@link #errors()} and {@link #repairs()} list everything that was counted. */
    public boolean complete() {
        return errors.size() == errorCount && repairs.size() == repairCount;
    }

    /** {@link Outcome#PASSED}, {@link Outcome#REJECTED}, {@link Outcome#REPLACED} or {@link Outcome#REPAIRED}. */
    public Outcome outcome() {
        if (inputWellFormed()) {
            return Outcome.PASSED;
        }
        if (policy == Policy.STRICT) {
            return Outcome.REJECTED;
        }
        return errorCount == 0 ? Outcome.REPAIRED : Outcome.REPLACED;
    }

    /** U+FFFD written: one per error, except under STRICT, which writes none. */
    public int replacements() {
        return policy == Policy.STRICT ? 0 : errorCount;
    }
}
