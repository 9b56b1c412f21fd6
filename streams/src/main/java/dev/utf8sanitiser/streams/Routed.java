package dev.utf8sanitiser.streams;

import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * A value with its route, between {@link SanitiseProcessor} and the {@code split()} that parts the
 * two routes in the DSL (whose predicates see keys and values, not headers). It never leaves the
 * sub-topology {@link StreamsSanitiser#sanitise} builds, so it needs no serde.
 */
record Routed(boolean deadLetter, byte[] bytes) {

    /** Forwards every record to the one child, its route in the value. */
    static final Routes<Routed> IN_THE_VALUE = new Routes<>() {
        @Override
        public void output(ProcessorContext<byte[], Routed> context, Record<byte[], byte[]> record) {
            context.forward(record.withValue(new Routed(false, record.value())));
        }

        @Override
        public void deadLetter(ProcessorContext<byte[], Routed> context, Record<byte[], byte[]> record) {
            context.forward(record.withValue(new Routed(true, record.value())));
        }
    };
}
