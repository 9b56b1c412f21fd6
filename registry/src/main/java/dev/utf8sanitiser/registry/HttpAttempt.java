package dev.utf8sanitiser.registry;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request and its whole answer, headers and body, within a time limit and at most {@link
 * BoundedBody#LIMIT} bytes. The JDK's request timeout ends when the headers arrive, so a body that
 * trickles in a byte at a time would hold the caller for as long as the server likes; here the
 * caller waits for the whole answer at most {@code timeout}, then cancels the exchange, which
 * closes the connection.
 */
final class HttpAttempt {
    /** The whole answer did not arrive in time. */
    static final class AnswerTimeoutException extends HttpTimeoutException {
        private static final long serialVersionUID = 1L;

        AnswerTimeoutException(Duration timeout, BoundedBody body) {
            super(
                    body.started()
                            ? "the body of the answer did not arrive whole in " + timeout.toMillis() + " ms ("
                                    + body.received() + " bytes had arrived)"
                            : "no answer in time");
        }
    }

    private HttpAttempt() {}

    /**
     * Sends {@code request} and reads its answer.
     *
     * @param timeout the most the whole exchange may take; empty: no limit
     * @throws BoundedBody.TooLargeException (possibly as the cause of another {@link IOException})
     *     the body went past the limit
     * @throws AnswerTimeoutException the whole answer did not arrive within {@code timeout}
     */
    static HttpResponse<byte[]> send(HttpClient http, HttpRequest request, Optional<Duration> timeout)
            throws IOException, InterruptedException {
        BoundedBody body = new BoundedBody(BoundedBody.LIMIT);
        CompletableFuture<HttpResponse<byte[]>> answer = http.sendAsync(request, info -> body);
        try {
            return timeout.isPresent() ? answer.get(timeout.get().toNanos(), TimeUnit.NANOSECONDS) : answer.get();
        } catch (TimeoutException e) {
            throw new AnswerTimeoutException(timeout.get(), body);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        } finally {
            if (!answer.isDone()) {
                // Timed out or interrupted: stop reading and drop the connection.
                answer.cancel(true);
                body.abort();
            }
        }
    }
}
