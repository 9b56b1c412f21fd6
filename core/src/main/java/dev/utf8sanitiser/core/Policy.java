package dev.utf8sanitiser.core;

/** What to do with ill-formed UTF-8. Hosts configure one of these; the core applies it. */
public enum Policy {
    /** Ill-formed means rejected: the output is the input, and the host routes it (to a DLQ). */
    STRICT,
    /** Each ill-formed maximal subpart becomes U+FFFD (Unicode §3.9, WHATWG). */
    REPLACE,
    /**
     * The two repairs of docs/rules.md (CESU-8 / Modified UTF-8 surrogate pairs, Modified UTF-8 NUL
     * {@code C0 80}), then {@link #REPLACE} for whatever is still ill-formed. Never the default.
     */
    REPAIR
}
