package dev.utf8sanitiser.testkit;

/**
 * The embedded broker did not start, did not answer, or refused an administrative request. A
 * start-up failure's message ends with the tail of the broker's log.
 */
public final class EmbeddedKafkaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EmbeddedKafkaException(String message) {
        super(message);
    }

    EmbeddedKafkaException(String message, Throwable cause) {
        super(message, cause);
    }
}
