package dev.utf8sanitiser.app.cli;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A request to stop (SIGTERM, SIGINT), honoured at once at every stage of {@code run}: while the
 * sanitiser runs, the main thread waits on it; while start-up blocks (waiting for the Kafka cluster,
 * the Schema Registry, topic creation), it interrupts the thread doing that, whose wait ends with
 * an {@link InterruptedException} or a failure caused by one.
 */
final class StopRequest {
    private final CountDownLatch requested = new CountDownLatch(1);
    private Thread interruptible; // guarded by this

    /** Requests the stop; from a signal handler's thread. */
    synchronized void request() {
        requested.countDown();
        if (interruptible != null) {
            interruptible.interrupt();
        }
    }

    boolean isRequested() {
        return requested.getCount() == 0;
    }

    /** Waits up to {@code millis} for the request; true once it has come. */
    boolean await(long millis) throws InterruptedException {
        return requested.await(millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Runs {@code task} on this thread, interrupting it if a stop is requested meanwhile. What it
     * throws then is the interrupt's doing: check {@link #isRequested()}. The interrupt never
     * outlives the task.
     *
     * @throws InterruptedException the stop had been requested before
     */
    <T> T interruptibly(Callable<T> task) throws Exception {
        synchronized (this) {
            if (isRequested()) {
                throw new InterruptedException("a stop was requested");
            }
            interruptible = Thread.currentThread();
        }
        try {
            return task.call();
        } finally {
            synchronized (this) {
                interruptible = null;
                Thread.interrupted(); // meant for the task only
            }
        }
    }
}
