package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import java.time.Instant;
import java.util.List;

/** One dead-letter topic as {@link Pager} reads it: partition by partition, in offset order. */
interface PartitionReader {
    /** The topic's partitions, in ascending order. */
    List<Integer> partitions();

    /** The first offset of {@code partition} still held. */
    long start(int partition);

    /** The offset after the last committed record of {@code partition}. */
    long end(int partition);

    /** The first offset of {@code partition} whose timestamp is {@code time} or later; its end when none is. */
    long offsetAt(int partition, Instant time);

    /**
     * Some of the records of {@code partition} from {@code from} on, below {@code end}, and the
     * offset to read next (past them, and past transaction markers and aborted records; at most
     * {@code end}). May return no records and a later offset.
     */
    Batch read(int partition, long from, long end);

    record Batch(List<DeadLetter> records, long next) {}
}
