package dev.utf8sanitiser.config;

/**
 * The dead-letter circuit breaker ({@code sanitiser.circuit.breaker.*}, docs/operations.md): it
 * trips when, among the last {@code windowRecords} records of an input topic in one task, the
 * share of dead letters would pass {@code deadLetterShare}, once the window holds at least {@code
 * minRecords}. A share of 1 never passes: the breaker is off.
 */
public record CircuitBreakerSettings(double deadLetterShare, int windowRecords, int minRecords) {
    /** Off: no share of dead letters is above 1. */
    public static final CircuitBreakerSettings OFF = new CircuitBreakerSettings(1.0, 1000, 100);

    public CircuitBreakerSettings {
        if (!(deadLetterShare >= 0 && deadLetterShare <= 1) || windowRecords < 1 || minRecords < 1) {
            throw new IllegalArgumentException("share in [0, 1], window and minimum at least 1");
        }
    }

    public boolean enabled() {
        return deadLetterShare < 1;
    }

    /** The records the window must hold before the breaker decides: at most the window. */
    public int decidingRecords() {
        return Math.min(minRecords, windowRecords);
    }
}
