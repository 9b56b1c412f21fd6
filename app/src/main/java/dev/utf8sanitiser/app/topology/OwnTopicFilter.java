package dev.utf8sanitiser.app.topology;

import dev.utf8sanitiser.config.OwnTopics;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Between an input pattern's source and the sanitiser: passes on the records of input topics and
 * not those of a topic the sanitiser writes itself ({@link OwnTopics}), which the pattern may match
 * when start-up could not prove it does not. Such a record is not dropped: it is already where the
 * sanitiser put it, and reading it again would write it again, one level deeper, without end.
 */
final class OwnTopicFilter implements Processor<byte[], byte[], byte[], byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(OwnTopicFilter.class);

    private final OwnTopics ownTopics;
    /** By topic, whether it is one of the sanitiser's own; decided once per topic and task. */
    private final Map<String, Boolean> own = new HashMap<>();

    private ProcessorContext<byte[], byte[]> context;

    OwnTopicFilter(OwnTopics ownTopics) {
        this.ownTopics = ownTopics;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        String topic = context.recordMetadata()
                .map(RecordMetadata::topic)
                .orElseThrow(() -> new IllegalStateException("a record without source metadata"));
        if (!own.computeIfAbsent(topic, this::isOwn)) {
            context.forward(record);
        }
    }

    private boolean isOwn(String topic) {
        Optional<String> writer = ownTopics.writer(topic);
        writer.ifPresent(w -> LOG.warn(
                "{} is {}, and the input pattern matches it too: its records are not read as input", topic, w));
        return writer.isPresent();
    }
}
