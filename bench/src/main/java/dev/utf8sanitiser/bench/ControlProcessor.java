package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.core.Utf8Validator;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** A control topology's one processor: it keeps its context and forwards each record as it decides. */
abstract class ControlProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    ProcessorContext<byte[], byte[]> context;

    @Override
    public final void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
    }

    /**
     * {@link Topo#BRANCHING}'s one processor: ill-formed values to the dead-letter sink, unchanged.
     * {@link ProcessorBenchmark} measures it too.
     */
    static final class BranchByUtf8 extends ControlProcessor {
        @Override
        public void process(Record<byte[], byte[]> record) {
            boolean wellFormed = record.value() == null || Utf8Validator.isWellFormed(record.value());
            context.forward(record, wellFormed ? "output" : "dead-letter");
        }
    }

    /** {@link Topo#ROUTED_PASS_THROUGH}'s one processor: every record to the output sink, by name. */
    static final class ForwardToOutput extends ControlProcessor {
        @Override
        public void process(Record<byte[], byte[]> record) {
            context.forward(record, "output");
        }
    }

    /** {@link Topo#PROCESSOR_PASS_THROUGH}'s one processor: every record to its one child. */
    static final class ForwardEach extends ControlProcessor {
        @Override
        public void process(Record<byte[], byte[]> record) {
            context.forward(record);
        }
    }
}
