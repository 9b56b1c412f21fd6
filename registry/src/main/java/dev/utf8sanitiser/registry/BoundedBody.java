package dev.utf8sanitiser.registry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read whole into memory, but no more than a limit: past it, the subscription is
 * cancelled (the JDK's client then closes the connection) and the body fails with {@link
 * TooLargeException}. {@link #abort()} does the same from another thread, for an answer that takes
 * too long. The JDK's {@code BodyHandlers.ofByteArray()} has no limit, so an endless answer fills
 * the heap.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
    /**
     * The most bytes read of one answer: 8 MiB. Confluent's registry keeps each schema in one Kafka
     * record of its {@code _schemas} topic (1 MiB by default), and a schema's references come in
     * answers of their own, so a real answer is far smaller.
     */
    static final int LIMIT = 8 * 1024 * 1024;

    /** The body went past the limit. */
    static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        TooLargeException(int limit) {
            super("the answer is larger than " + limit + " bytes");
        }
    }

    private final int limit;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private volatile Flow.Subscription subscription;
    private volatile long received;
    private volatile boolean started;

    BoundedBody(int limit) {
        this.limit = limit;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        this.started = true;
        if (body.isDone()) {
            subscription.cancel();
        } else {
            subscription.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer buffer : buffers) {
            if (body.isDone()) {
                return;
            }
            int length = buffer.remaining();
            received += length;
            if (received > limit) {
                subscription.cancel();
                body.completeExceptionally(new TooLargeException(limit));
                return;
            }
            byte[] chunk = new byte[length];
            buffer.get(chunk);
            bytes.write(chunk, 0, length);
        }
    }

    @Override
    public void onError(Throwable failure) {
        body.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
        body.complete(bytes.toByteArray());
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    /** Stops reading: cancels the subscription, which closes the connection, and fails the body. */
    void abort() {
        body.completeExceptionally(new IOException("aborted"));
        Flow.Subscription current = subscription;
        if (current != null) {
            current.cancel();
        }
    }

    /** Whether the headers have arrived and the body is being read. */
    boolean started() {
        return started;
    }

    /** How many bytes of the body have arrived so far. */
    long received() {
        return received;
    }
}
