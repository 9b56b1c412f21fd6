package dev.utf8sanitiser.app;

/**
 * No broker of {@code bootstrap.servers} answered within {@code sanitiser.startup.timeout.ms} at
 * start-up. Not a configuration mistake as such: the cluster may be starting or away for a while,
 * so {@code run} exits 1 for a supervisor to start it again (docs/operations.md).
 */
public final class ClusterUnreachableException extends RuntimeException {
    ClusterUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}
