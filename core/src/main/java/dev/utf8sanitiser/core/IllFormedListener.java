package dev.utf8sanitiser.core;

/**
 * Receives ill-formed maximal subparts as plain numbers, in the order they occur: unlike {@link
 * Utf8ErrorListener}, a walk over millions of them allocates nothing.
 */
@FunctionalInterface
public interface IllFormedListener {
    /**
     * @param offset where the maximal subpart starts, from the first checked byte
     * @param length its length, 1 to 3
     */
    void onIllFormed(long offset, int length, Rule rule);
}
