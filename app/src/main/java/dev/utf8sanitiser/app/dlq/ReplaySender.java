package dev.utf8sanitiser.app.dlq;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sends replayed records exactly once: each record and its entry in the replay log (a compacted
 * topic beside the dead-letter topic, {@code <dlq>.replayed}, key the dead-letter record's
 * coordinates, value the topic it went to) go in the same transaction, so a replay that stops
 * half-way leaves both or neither, and the next replay skips what the log holds. One transaction
 * per {@link #BATCH} records. The transactional id is the dead-letter topic's, so two replays of
 * the same topic at once cannot both write: the later one fences the earlier.
 */
public final class ReplaySender implements AutoCloseable {
    /** Records per transaction. */
    public static final int BATCH = 500;

    private final KafkaProducer<byte[], byte[]> producer;
    private final String logTopic;
    private int inTransaction;
    private long sent;

    private ReplaySender(KafkaProducer<byte[], byte[]> producer, String logTopic) {
        this.producer = producer;
        this.logTopic = logTopic;
    }

    /** The replay log of {@code deadLetterTopic}. */
    public static String logTopic(String deadLetterTopic) {
        return deadLetterTopic + ".replayed";
    }

    /**
     * What the replay log of {@code deadLetterTopic} holds: the coordinates of each record replayed
     * before, with the topic it went to. Empty when there is no log yet.
     */
    public static Map<String, String> replayedBefore(TopicReader reader, String deadLetterTopic) {
        Map<String, String> replayed = new HashMap<>();
        try {
            reader.read(
                    logTopic(deadLetterTopic),
                    Optional.empty(),
                    entry -> {
                        if (entry.key() != null && entry.value() != null) {
                            replayed.put(
                                    new String(entry.key(), StandardCharsets.UTF_8),
                                    new String(entry.value(), StandardCharsets.UTF_8));
                        }
                        return true;
                    },
                    (read, total) -> {});
        } catch (TopicReader.TopicException e) {
            if (!e.unknownTopic()) {
                throw e;
            }
        }
        return replayed;
    }

    /** Creates the replay log if it is not there, and a producer whose first transaction is open. */
    public static ReplaySender open(Properties clientProperties, Admin admin, String deadLetterTopic)
            throws ExecutionException, InterruptedException {
        String log = logTopic(deadLetterTopic);
        NewTopic topic = new NewTopic(log, Optional.of(1), Optional.empty())
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        try {
            admin.createTopics(List.of(topic)).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "utf8-sanitiser-replay-" + deadLetterTopic);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props);
        try {
            producer.initTransactions();
            producer.beginTransaction();
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        return new ReplaySender(producer, log);
    }

    /** Sends one record and its log entry in the open transaction; commits every {@link #BATCH}. */
    public void send(Replay.Send replay) {
        producer.send(replay.out());
        producer.send(new ProducerRecord<>(
                logTopic, Replay.logKey(replay.record()), replay.out().topic().getBytes(StandardCharsets.UTF_8)));
        sent++;
        if (++inTransaction == BATCH) {
            producer.commitTransaction();
            producer.beginTransaction();
            inTransaction = 0;
        }
    }

    /** Commits what is left; the replay is done. */
    public long finish() {
        producer.commitTransaction();
        inTransaction = -1;
        return sent;
    }

    /** Aborts an open transaction (what was committed stays, and is in the log), then closes. */
    @Override
    public void close() {
        try {
            if (inTransaction >= 0) {
                producer.abortTransaction();
            }
        } finally {
            producer.close();
        }
    }
}
