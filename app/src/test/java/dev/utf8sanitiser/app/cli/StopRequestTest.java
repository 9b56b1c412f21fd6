package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A stop request ends a blocked start-up at once, and its interrupt reaches nothing else. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StopRequestTest {
    @Test
    void aRequestEndsAWaitThatWouldNeverEnd() throws Exception {
        StopRequest stop = new StopRequest();
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean interruptedAfter = new AtomicBoolean(true);
        Thread starter = new Thread(() -> {
            try {
                stop.interruptibly(() -> {
                    waiting.countDown();
                    return new CompletableFuture<>().get(); // a broker that never answers
                });
            } catch (Throwable e) {
                thrown.set(e);
            }
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        starter.start();
        waiting.await();

        stop.request();
        starter.join();

        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(stop.isRequested()).isTrue();
        assertThat(interruptedAfter.get()).as("the interrupt outlived the task").isFalse();
    }

    @Test
    void aRequestBeforeStartUpRunsNothing() {
        StopRequest stop = new StopRequest();
        AtomicBoolean ran = new AtomicBoolean();
        stop.request();

        assertThatThrownBy(() -> stop.interruptibly(() -> ran.getAndSet(true)))
                .isInstanceOf(InterruptedException.class);
        assertThat(ran).isFalse();
    }

    @Test
    void aRequestAfterStartUpInterruptsNothing() throws Exception {
        StopRequest stop = new StopRequest();

        assertThat(stop.interruptibly(() -> "started")).isEqualTo("started");
        stop.request();

        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(stop.await(0)).isTrue();
    }
}
