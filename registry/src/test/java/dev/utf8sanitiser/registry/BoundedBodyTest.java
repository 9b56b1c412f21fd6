package dev.utf8sanitiser.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class BoundedBodyTest {
    /** Counts what the subscriber asks of it. */
    private static final class Subscription implements Flow.Subscription {
        long requested;
        int cancelled;

        @Override
        public void request(long n) {
            requested += n;
        }

        @Override
        public void cancel() {
            cancelled++;
        }
    }

    @Test
    void collectsABodyUpToTheLimit() throws Exception {
        BoundedBody body = new BoundedBody(10);
        Subscription subscription = new Subscription();
        body.onSubscribe(subscription);

        body.onNext(List.of(ByteBuffer.wrap(new byte[] {1, 2, 3}), ByteBuffer.wrap(new byte[] {4, 5, 6, 7})));
        body.onNext(List.of(ByteBuffer.wrap(new byte[] {8, 9, 10})));
        body.onComplete();

        assertThat(body.getBody().toCompletableFuture().get()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertThat(subscription.cancelled).isZero();
        assertThat(body.received()).isEqualTo(10);
    }

    @Test
    void cancelsTheSubscriptionOneBytePastTheLimit() {
        BoundedBody body = new BoundedBody(10);
        Subscription subscription = new Subscription();
        body.onSubscribe(subscription);

        body.onNext(List.of(ByteBuffer.wrap(new byte[6])));
        body.onNext(List.of(ByteBuffer.wrap(new byte[5]), ByteBuffer.wrap(new byte[1_000])));
        body.onNext(List.of(ByteBuffer.wrap(new byte[1_000])));

        assertThat(subscription.cancelled).isEqualTo(1);
        assertThat(body.received()).as("nothing kept after the limit").isEqualTo(11);
        CompletableFuture<byte[]> result = body.getBody().toCompletableFuture();
        Assertions.assertThatThrownBy(result::get)
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(BoundedBody.TooLargeException.class)
                .hasMessageContaining("the answer is larger than 10 bytes");
    }

    @Test
    void abortStopsReadingFromAnotherThread() {
        BoundedBody body = new BoundedBody(10);
        Subscription subscription = new Subscription();
        body.onSubscribe(subscription);
        body.onNext(List.of(ByteBuffer.wrap(new byte[3])));

        body.abort();
        body.onNext(List.of(ByteBuffer.wrap(new byte[3])));

        assertThat(subscription.cancelled).isEqualTo(1);
        assertThat(body.received()).isEqualTo(3);
        assertThat(body.getBody().toCompletableFuture()).isCompletedExceptionally();
    }

    @Test
    void abortBeforeTheHeadersCancelsOnSubscribe() {
        BoundedBody body = new BoundedBody(10);
        body.abort();
        Subscription subscription = new Subscription();

        body.onSubscribe(subscription);

        assertThat(subscription.cancelled).isEqualTo(1);
        assertThat(subscription.requested).isZero();
    }
}
