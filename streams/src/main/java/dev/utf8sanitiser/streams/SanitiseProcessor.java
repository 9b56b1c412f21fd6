package dev.utf8sanitiser.streams;

import dev.utf8sanitiser.config.CircuitBreakerSettings;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.Oversize;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides each record with {@link RecordSanitiser} and hands it on by one of two {@link Routes}: the
 * output, or the dead-letter topic with the annotation of docs/dlq.md. Every record takes exactly
 * one of them; none is dropped. The sanitiser application's topology runs it, and so can users' own
 * ({@link StreamsSanitiser}).
 *
 * <p>No record is forwarded that its topic would refuse for its size, since a refused send fails
 * the transaction and the restarted application would read the same record again, for ever. A
 * record too large for the output goes to the dead-letter topic byte-exact ({@code
 * REPLACEMENT_TOO_LARGE}, {@code RECORD_TOO_LARGE}); a dead-letter record too large for its topic
 * loses its field and context headers, and if still too large, is replaced by a placeholder that
 * names where the record is in the input ({@link DeadLetterRecord}).
 *
 * @param <V> the value type forwarded: {@code byte[]} to named children, a routed value in the DSL
 */
public final class SanitiseProcessor<V> implements Processor<byte[], byte[], byte[], V> {
    private static final Logger LOG = LoggerFactory.getLogger(SanitiseProcessor.class);

    private final RecordSanitiser sanitiser;
    private final DeadLetterAnnotation annotation;
    private final SinkTopics sinks;
    private final SizeLimits limits;
    private final List<String> inputTopics;
    private final Routes<V> routes;
    private final DeadLetterBreaker breaker;
    private ProcessorContext<byte[], V> context;
    private SanitiserMetrics metrics;
    /** The input topic of the record before, and its output topic's size limit: looked up once a topic. */
    private String limitTopic;

    private int limitOfLimitTopic;

    /** False once the context had no cached time to give: Kafka's test context until a test sets one. */
    private boolean contextHasTime = true;

    /**
     * @param sinks the output and dead-letter topic of each input topic, for their size limits
     * @param inputTopics the listed input topics, whose counters start at zero; empty with a pattern
     */
    public SanitiseProcessor(
            RecordSanitiser sanitiser,
            DeadLetterAnnotation annotation,
            SinkTopics sinks,
            SizeLimits limits,
            List<String> inputTopics,
            Routes<V> routes) {
        this(sanitiser, annotation, sinks, limits, inputTopics, routes, CircuitBreakerSettings.OFF);
    }

    /**
     * @param breaker the dead-letter circuit breaker's settings: past its limit the processor
     *     throws {@link DeadLetterBreakerOpenException} instead of dead-lettering the record
     */
    public SanitiseProcessor(
            RecordSanitiser sanitiser,
            DeadLetterAnnotation annotation,
            SinkTopics sinks,
            SizeLimits limits,
            List<String> inputTopics,
            Routes<V> routes,
            CircuitBreakerSettings breaker) {
        this.breaker = new DeadLetterBreaker(breaker);
        this.inputTopics = List.copyOf(inputTopics);
        this.sanitiser = sanitiser;
        this.annotation = annotation;
        this.sinks = sinks;
        this.limits = limits;
        this.routes = routes;
    }

    @Override
    public void init(ProcessorContext<byte[], V> context) {
        this.context = context;
        this.metrics = new SanitiserMetrics(context.metrics(), context.taskId().toString(), inputTopics);
        // The metrics get the last records of a stream that goes idle too, not only when more come.
        context.schedule(SanitiserMetrics.FLUSH_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> metrics.flush());
    }

    @Override
    public void close() {
        if (metrics != null) {
            metrics.close();
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata source = context.recordMetadata()
                .orElseThrow(() -> new IllegalStateException("a record without source metadata"));
        Decision<RecordParts> decision = sanitiser.decide(record.key(), record.value(), record.headers());
        if (decision instanceof Decision.Changed<RecordParts> changed) {
            RecordParts parts = changed.fixed();
            Record<byte[], byte[]> fixed = withHeaders(
                    new Record<>(parts.key(), parts.value(), record.timestamp()),
                    parts.headers(),
                    changed.annotation());
            sendOn(record, source, fixed, DeadLetterRule.REPLACEMENT_TOO_LARGE, changed);
        } else if (decision instanceof Decision.DeadLetter<RecordParts> deadLetter) {
            deadLetter(record, source, deadLetter);
        } else {
            sendOn(record, source, record, DeadLetterRule.RECORD_TOO_LARGE, decision);
        }
    }

    /**
     * Forwards {@code out} to the output when it fits, else the original record to the dead-letter
     * topic under {@code tooLargeRule}, described by the decision's first ill-formed place, if any.
     */
    private void sendOn(
            Record<byte[], byte[]> original,
            RecordMetadata source,
            Record<byte[], byte[]> out,
            DeadLetterRule tooLargeRule,
            Decision<RecordParts> decision) {
        int limit = outputLimit(source.topic());
        long size = RecordSize.upperBound(out.key(), out.value(), out.headers());
        if (size <= limit) {
            breaker.passed(source.topic());
            routes.output(context, out);
            metrics.record(source.topic(), decision.outcome(), now());
            return;
        }
        Optional<Finding> first = Optional.empty();
        int errors = 0;
        if (decision instanceof Decision.Changed<RecordParts> changed) {
            first = changed.first();
            errors = changed.errors();
        }
        Finding described = first.orElseGet(() -> wholeRecord(tooLargeRule, original.value()));
        Oversize oversize = new Oversize(tooLargeRule, Oversize.OUTPUT, size, limit);
        deadLetter(original, source, new Decision.DeadLetter<>(described, errors, Optional.of(oversize)));
    }

    /**
     * The wall-clock time Kafka Streams cached for this pass of the stream thread's loop, for the
     * metrics; the clock where the context has none (Kafka's {@code MockProcessorContext} throws
     * until a test sets it, and users test their own topologies on it).
     */
    private long now() {
        if (contextHasTime) {
            try {
                return context.currentSystemTimeMs();
            } catch (IllegalStateException noTimeSet) {
                contextHasTime = false;
            }
        }
        return System.currentTimeMillis();
    }

    /** The size limit of the output topic of {@code inputTopic}, which is nearly always the last one's. */
    private int outputLimit(String inputTopic) {
        if (!inputTopic.equals(limitTopic)) {
            limitOfLimitTopic = limits.of(sinks.output(inputTopic));
            limitTopic = inputTopic;
        }
        return limitOfLimitTopic;
    }

    /**
     * {@code record} with these headers: Kafka's implementation of {@code Headers} is internal, and a
     * new {@link Record} makes its own, which the processor owns.
     */
    @SafeVarargs
    private static Record<byte[], byte[]> withHeaders(Record<byte[], byte[]> record, List<Header>... headers) {
        for (List<Header> list : headers) {
            list.forEach(record.headers()::add);
        }
        return record;
    }

    /** For a record too large with no ill-formed place: its first byte, nothing highlighted. */
    private static Finding wholeRecord(DeadLetterRule rule, byte[] value) {
        return new Finding(Part.VALUE, rule, 0, 0, 0, value == null ? new byte[0] : value);
    }

    /** The record, byte-exact, with as much annotation as the dead-letter topic takes, or a placeholder. */
    private void deadLetter(Record<byte[], byte[]> record, RecordMetadata source, Decision.DeadLetter<?> verdict) {
        breaker.deadLettering(source.topic()); // throws past the limit: not dead-lettered, not committed
        String topic = sinks.deadLetter(source.topic());
        DeadLetterRecord fitted = DeadLetterRecord.fitting(
                record.key(),
                record.value(),
                record.headers(),
                verdict,
                annotation,
                sanitiser.policy(),
                new DeadLetterAnnotation.Source(source.topic(), source.partition(), source.offset()),
                record.timestamp(),
                topic,
                limits.of(topic));
        Record<byte[], byte[]> out =
                withHeaders(new Record<>(fitted.key(), fitted.value(), record.timestamp()), fitted.headers());
        forwardDeadLetter(out, source.topic(), fitted.rule());
    }

    private void forwardDeadLetter(Record<byte[], byte[]> record, String inputTopic, DeadLetterRule rule) {
        routes.deadLetter(context, record);
        if (LOG.isDebugEnabled()) { // coordinates and rule only: never the payload
            context.recordMetadata()
                    .ifPresent(source -> LOG.debug(
                            "dead-lettered topic={} partition={} offset={} rule={}",
                            source.topic(),
                            source.partition(),
                            source.offset(),
                            rule));
        }
        metrics.deadLettered(inputTopic, rule, now());
    }
}
