package dev.utf8sanitiser.app.dlq;

import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * What {@code dlq replay} makes of one dead-letter record: the record to send (its key, value and
 * own headers as they were, or as a policy fixes them, with {@code __utf8.replay.*} naming the
 * dead-letter record), or why none is sent. Pure: the sending is {@link ReplaySender}'s.
 */
public final class Replay {
    /** What became of one selected record. */
    public sealed interface Result {
        DeadLetter record();
    }

    /** To be sent. */
    public record Send(DeadLetter record, ProducerRecord<byte[], byte[]> out, String what) implements Result {}

    /** Why a selected record is not sent. */
    public enum Why {
        /** The replay log has it. */
        REPLAYED_BEFORE,
        /** A placeholder: the record itself was too large to keep. */
        PLACEHOLDER,
        /** The policy rejects it still. */
        STILL_REJECTED
    }

    /** Not sent: why, in a word and in a sentence. */
    public record Skip(DeadLetter record, Why why, String reason) implements Result {}

    private final String to;
    private final Optional<RecordSanitiser> sanitiser;
    private final Map<String, String> replayedBefore;

    /**
     * @param sanitiser the policy to send records under; empty to send them as they are
     * @param replayedBefore the records the replay log says were sent before, to skip, by their
     *     coordinates ({@link DeadLetter#coordinates()}), with the topic each went to; empty with
     *     {@code --allow-repeat}
     */
    public Replay(String to, Optional<RecordSanitiser> sanitiser, Map<String, String> replayedBefore) {
        this.to = to;
        this.sanitiser = sanitiser;
        this.replayedBefore = Map.copyOf(replayedBefore);
    }

    public Result of(DeadLetter record) {
        String before = replayedBefore.get(record.coordinates());
        if (before != null) {
            return new Skip(
                    record, Why.REPLAYED_BEFORE, "replayed to " + before + " before (--allow-repeat sends it again)");
        }
        if (record.annotation().map(DeadLetterHeaders::placeholder).orElse(false)) {
            return new Skip(
                    record, Why.PLACEHOLDER, "a placeholder: the record was too large to keep; find it at its source");
        }
        List<Header> own = DeadLetterHeaders.original(record.headers());
        byte[] key = record.key();
        byte[] value = record.value();
        List<Header> headers = new ArrayList<>(own);
        String what = "as it is";
        if (sanitiser.isPresent()) {
            String policy = sanitiser.get().policy().name().toLowerCase(Locale.ROOT);
            Decision<RecordParts> decision = sanitiser.get().decide(key, value, own);
            if (decision instanceof Decision.DeadLetter<RecordParts> dead) {
                return new Skip(record, Why.STILL_REJECTED, "still rejected under " + policy + ": " + dead.rule());
            }
            if (decision instanceof Decision.Changed<RecordParts> changed) {
                key = changed.fixed().key();
                value = changed.fixed().value();
                headers = new ArrayList<>(changed.fixed().headers());
                headers.addAll(changed.annotation());
                what = changed.outcome().label() + " under " + policy + ", " + changed.errors() + " error(s)";
            } else {
                what = "well-formed under " + policy;
            }
            headers.add(PlainHeader.of(HeaderNames.REPLAY_POLICY, policy));
        }
        headers.add(PlainHeader.of(HeaderNames.REPLAY_TOPIC, record.topic()));
        headers.add(PlainHeader.of(HeaderNames.REPLAY_PARTITION, Integer.toString(record.partition())));
        headers.add(PlainHeader.of(HeaderNames.REPLAY_OFFSET, Long.toString(record.offset())));
        Long timestamp = record.timestamp() < 0 ? null : record.timestamp();
        return new Send(record, new ProducerRecord<>(to, null, timestamp, key, value, headers), what);
    }

    /** The key of a replay log entry: the dead-letter record's coordinates. */
    static byte[] logKey(DeadLetter record) {
        return record.coordinates().getBytes(StandardCharsets.UTF_8);
    }
}
