package dev.utf8sanitiser.config;

/**
 * {@code sanitiser.on.fatal.error}: what an exception that escapes a stream thread does. The names
 * are those of Kafka Streams' {@code StreamThreadExceptionResponse}, which the application maps
 * them to; this module does not depend on Kafka Streams.
 */
public enum FatalErrorResponse {
    /** Stop this instance; the process exits 1, for a supervisor to restart. The default. */
    SHUTDOWN_CLIENT,
    /** Start a new stream thread that resumes from the last commit. */
    REPLACE_THREAD,
    /** Stop every instance of the application. */
    SHUTDOWN_APPLICATION
}
