package dev.utf8sanitiser.core;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;

/**
 * Bytes of heap the current thread allocates in a piece of code: counted by the JVM, not timed, so
 * a test may compare them with the input's size.
 */
final class AllocatedBytes {
    private static final ThreadMXBean THREADS = ManagementFactory.getPlatformMXBean(ThreadMXBean.class);

    private AllocatedBytes() {}

    static boolean supported() {
        return THREADS != null && THREADS.isThreadAllocatedMemorySupported();
    }

    /** What {@code code} allocates on its second run (the first loads and links classes). */
    static long of(Runnable code) {
        code.run();
        long before = THREADS.getCurrentThreadAllocatedBytes();
        code.run();
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }
}
