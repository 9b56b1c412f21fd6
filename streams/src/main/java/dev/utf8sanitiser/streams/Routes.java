package dev.utf8sanitiser.streams;

import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * How {@link SanitiseProcessor} hands a record on: to one of two named children in a {@code
 * Topology} built with the Processor API, or, in the DSL, to its one child with the route in the
 * value, for a {@code split()} to part.
 *
 * @param <V> the value type the processor forwards
 */
public interface Routes<V> {

    /** A record for the output: well-formed, or fixed by the policy. */
    void output(ProcessorContext<byte[], V> context, Record<byte[], byte[]> record);

    /** A record for the dead-letter topic, annotated. */
    void deadLetter(ProcessorContext<byte[], V> context, Record<byte[], byte[]> record);

    /** Forwards to the child processors (or sinks) of these names. */
    static Routes<byte[]> toChildren(String outputChild, String deadLetterChild) {
        return new Routes<>() {
            @Override
            public void output(ProcessorContext<byte[], byte[]> context, Record<byte[], byte[]> record) {
                context.forward(record, outputChild);
            }

            @Override
            public void deadLetter(ProcessorContext<byte[], byte[]> context, Record<byte[], byte[]> record) {
                context.forward(record, deadLetterChild);
            }
        };
    }
}
