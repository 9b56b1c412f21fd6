package dev.utf8sanitiser.serdes;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * Runs a task on a thread with a small stack: a hostile record must not overflow the stack of any
 * thread it meets (a Streams thread, a Connect task, a consumer's poll), whatever its -Xss.
 */
public final class SmallStack {
    /** A quarter of HotSpot's default 1 MB on 64-bit Linux. */
    public static final int BYTES = 256 * 1024;

    private SmallStack() {}

    /** The task's result; what it throws is thrown as it is, a StackOverflowError included. */
    public static <T> T call(Callable<T> task) throws Exception {
        return call(BYTES, task);
    }

    /**
     * As {@link #call(Callable)}, for a task that throws no checked exception, on a thread with
     * {@code stackBytes} of stack.
     */
    public static <T> T get(int stackBytes, Supplier<T> task) {
        try {
            return call(stackBytes, task::get);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T call(int stackBytes, Callable<T> task) throws Exception {
        FutureTask<T> future = new FutureTask<>(task);
        Thread thread = new Thread(null, future, "small-stack", stackBytes);
        thread.start();
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
