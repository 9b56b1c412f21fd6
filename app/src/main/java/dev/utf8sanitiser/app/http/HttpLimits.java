package dev.utf8sanitiser.app.http;

import java.time.Duration;

/**
 * What one client may hold of the HTTP port.
 *
 * @param idleTimeout how long a connection may send nothing (half a request line included) before
 *     it is closed
 * @param maxConnections connections open at once (each costs buffers and a file descriptor): one
 *     more closes the connection stalled for longest, or itself when none has stalled ({@link
 *     StalledConnectionEviction})
 * @param stalledAfter how long a connection must have read no request (since it opened, or since
 *     its last request) to be closed for a new one past the limit
 * @param maxRequestHeaderBytes the request line and headers; larger ones get 431
 * @param maxFormBytes a POSTed form; larger ones get 413
 * @param threads the server's threads, the selector and acceptor included
 * @param heavyRequests how many requests of one heavy kind (console pages, metrics scrapes) run at
 *     once; the others wait, holding no thread, for at most {@code heavyWait}, then get 503
 */
public record HttpLimits(
        Duration idleTimeout,
        int maxConnections,
        Duration stalledAfter,
        int maxRequestHeaderBytes,
        int maxFormBytes,
        int threads,
        int heavyRequests,
        Duration heavyWait) {

    public static final HttpLimits DEFAULT = new HttpLimits(
            Duration.ofSeconds(10), 256, Duration.ofSeconds(2), 8 * 1024, 64 * 1024, 16, 3, Duration.ofSeconds(30));

    public HttpLimits {
        if (threads < 2 * heavyRequests + 4) {
            throw new IllegalArgumentException("too few threads for the heavy requests and the probes: " + threads);
        }
    }
}
