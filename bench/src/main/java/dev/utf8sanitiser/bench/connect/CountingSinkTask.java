package dev.utf8sanitiser.bench.connect;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * Counts what the worker hands it and measures the worker from inside: at the first {@code put}
 * (the first batch is then already polled, converted and transformed) it notes the clock, the
 * worker JVM's CPU time and this task thread's; at the {@code put} that holds the record at {@code
 * last.offset} it notes them again and writes, in one line to {@code result.file}:
 *
 * <pre>
 *   FIRST_OFFSET LAST_OFFSET NANOS PROCESS_CPU_NANOS TASK_THREAD_CPU_NANOS RECEIVED VALUE_BYTES
 * </pre>
 *
 * FIRST_OFFSET is the last offset of the first batch, so LAST_OFFSET - FIRST_OFFSET input records
 * passed the worker in NANOS, whether the transformation passed them on or sent them to Connect's
 * dead-letter queue. RECEIVED counts every record that reached the sink, the first batch included.
 * The offsets are the input topic's: the task reads one partition.
 */
public final class CountingSinkTask extends SinkTask {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private Path resultFile;
    private long lastOffset;
    private boolean started;
    private boolean done;
    private long firstOffset;
    private long startNanos;
    private long startProcessCpu;
    private long startThreadCpu;
    private long received;
    private long valueBytes;

    @Override
    public void start(Map<String, String> props) {
        AbstractConfig config = new AbstractConfig(CountingSinkConnector.CONFIG, props);
        resultFile = Path.of(config.getString(CountingSinkConnector.RESULT_FILE));
        lastOffset = config.getLong(CountingSinkConnector.LAST_OFFSET);
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        if (records.isEmpty() || done) {
            return;
        }
        long nanos = System.nanoTime();
        long processCpu = processCpuNanos();
        long threadCpu = THREADS.getCurrentThreadCpuTime();
        long highest = -1;
        for (SinkRecord record : records) {
            received++;
            valueBytes += length(record.value());
            highest = Math.max(highest, record.kafkaOffset());
        }
        if (!started) {
            started = true;
            firstOffset = highest;
            startNanos = nanos;
            startProcessCpu = processCpu;
            startThreadCpu = threadCpu;
        } else if (highest >= lastOffset) {
            done = true;
            report(
                    highest,
                    System.nanoTime() - startNanos,
                    processCpuNanos() - startProcessCpu,
                    THREADS.getCurrentThreadCpuTime() - startThreadCpu);
        }
    }

    private void report(long highest, long nanos, long processCpu, long threadCpu) {
        String line = firstOffset + " " + highest + " " + nanos + " " + processCpu + " " + threadCpu + " " + received
                + " " + valueBytes + "\n";
        try {
            // Written aside and moved, so the benchmark never reads half a line.
            Path partial = resultFile.resolveSibling(resultFile.getFileName() + ".partial");
            Files.writeString(partial, line, StandardCharsets.US_ASCII);
            Files.move(partial, resultFile, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long length(Object value) {
        if (value instanceof byte[] bytes) {
            return bytes.length;
        } else if (value instanceof ByteBuffer buffer) {
            return buffer.remaining();
        }
        return 0;
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean sun
                ? sun.getProcessCpuTime()
                : 0;
    }

    @Override
    public void stop() {
        // nothing to release
    }

    @Override
    public String version() {
        return "1";
    }
}
