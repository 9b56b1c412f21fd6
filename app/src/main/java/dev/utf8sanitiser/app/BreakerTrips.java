package dev.utf8sanitiser.app;

import dev.utf8sanitiser.streams.DeadLetterBreakerOpenException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The input topics whose dead-letter circuit breaker tripped in this instance, with the reason: for
 * {@code /health/ready} and the {@code utf8_sanitiser_circuit_breaker_open} gauge. A breaker, once
 * tripped, stays open until the instance restarts (docs/operations.md).
 */
final class BreakerTrips {
    private final Map<String, String> open = new ConcurrentSkipListMap<>();

    /** Records the trip; whether it is the first for its topic. */
    boolean trip(DeadLetterBreakerOpenException exception) {
        return open.putIfAbsent(exception.topic(), exception.getMessage()) == null;
    }

    boolean isOpen(String topic) {
        return open.containsKey(topic);
    }

    /** The topics that tripped, in order. */
    List<String> topics() {
        return List.copyOf(open.keySet());
    }

    /** One line a tripped topic, for the readiness probe. */
    List<String> reasons() {
        return List.copyOf(open.values());
    }

    boolean anyOpen() {
        return !open.isEmpty();
    }
}
