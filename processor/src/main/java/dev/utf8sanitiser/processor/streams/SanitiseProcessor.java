package dev.utf8sanitiser.processor.streams;

import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Decides each record with {@link RecordSanitiser} and forwards it to one of two children: the
 * output sink, or the dead-letter sink with the annotation of docs/dlq.md. Every record goes to exactly one
 * of them; none is dropped.
 */
final class SanitiseProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private final RecordSanitiser sanitiser;
    private final DeadLetterAnnotation annotation;
    private ProcessorContext<byte[], byte[]> context;
    private SanitiserMetrics metrics;

    SanitiseProcessor(RecordSanitiser sanitiser, DeadLetterAnnotation annotation) {
        this.sanitiser = sanitiser;
        this.annotation = annotation;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.metrics = new SanitiserMetrics(context.metrics(), context.taskId().toString());
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        Decision decision = sanitiser.decide(record.key(), record.value(), record.headers());
        if (decision instanceof Decision.Pass) {
            context.forward(record, SanitiserTopology.OUTPUT);
            metrics.record(SanitiserMetrics.Outcome.PASSED);
        } else if (decision instanceof Decision.Changed changed) {
            Headers headers = changed.headers();
            headers.add(HeaderNames.ACTION, changed.action().getBytes(StandardCharsets.UTF_8));
            headers.add(HeaderNames.ERRORS, Integer.toString(changed.errors()).getBytes(StandardCharsets.UTF_8));
            context.forward(
                    record.withKey(changed.key()).withValue(changed.value()).withHeaders(headers),
                    SanitiserTopology.OUTPUT);
            metrics.record(SanitiserMetrics.Outcome.forAction(changed.action()));
        } else if (decision instanceof Decision.DeadLetter deadLetter) {
            RecordMetadata source = context.recordMetadata()
                    .orElseThrow(() -> new IllegalStateException("a record without source metadata"));
            Headers headers = annotation.annotate(
                    record.headers(),
                    deadLetter,
                    sanitiser.policy(),
                    new DeadLetterAnnotation.Source(source.topic(), source.partition(), source.offset()),
                    record.timestamp());
            context.forward(record.withHeaders(headers), SanitiserTopology.DEAD_LETTER);
            metrics.record(
                    SanitiserMetrics.Outcome.DEAD_LETTERED, deadLetter.first().rule());
        }
    }
}
