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
        STILL_REJECTED,
        /** Replayed as often as the limit allows and dead-lettered again each time: quarantined. */
        QUARANTINED,
        /** Sent to its source, which the record does not name or names a topic it cannot go to. */
        NO_SOURCE,
        /** Another tool's headers on it are not what that tool writes ({@link Foreign.Refused}). */
        REFUSED
    }

    /** How many times a record may be replayed unless the limit is lifted ({@code --max-replays}). */
    public static final int DEFAULT_MAX_REPLAYS = 3;

    /** Not sent: why, in a word and in a sentence. */
    public record Skip(DeadLetter record, Why why, String reason) implements Result {}

    private final Optional<String> to;
    private final Optional<RecordSanitiser> sanitiser;
    private final Map<String, String> replayedBefore;
    private final int maxReplays;

    /**
     * @param sanitiser the policy to send records under; empty to send them as they are
     * @param replayedBefore the records the replay log says were sent before, to skip, by their
     *     coordinates ({@link DeadLetter#coordinates()}), with the topic each went to; empty with
     *     {@code --allow-repeat}
     */
    public Replay(String to, Optional<RecordSanitiser> sanitiser, Map<String, String> replayedBefore) {
        this(to, sanitiser, replayedBefore, DEFAULT_MAX_REPLAYS);
    }

    /**
     * @param maxReplays a record whose own {@code __utf8.replay.count} has reached this (it was
     *     replayed that often, and came back to a dead-letter topic each time) is not sent again
     */
    public Replay(String to, Optional<RecordSanitiser> sanitiser, Map<String, String> replayedBefore, int maxReplays) {
        this(Optional.of(to), sanitiser, replayedBefore, maxReplays);
    }

    /**
     * @param to the topic to send every record to; empty to send each to the topic it was read from,
     *     as its annotation names it (the sanitiser's {@code __utf8.source.topic}, or the source
     *     another tool wrote)
     */
    public Replay(
            Optional<String> to,
            Optional<RecordSanitiser> sanitiser,
            Map<String, String> replayedBefore,
            int maxReplays) {
        this.to = to;
        this.sanitiser = sanitiser;
        this.replayedBefore = Map.copyOf(replayedBefore);
        this.maxReplays = maxReplays;
    }

    /**
     * How many times the record was replayed before: its own last {@code __utf8.replay.count}, 0
     * without one (or with one that is not a count, which a replay then replaces).
     */
    static int replayCount(List<Header> own) {
        for (int i = own.size() - 1; i >= 0; i--) {
            if (own.get(i).key().equals(HeaderNames.REPLAY_COUNT)) {
                try {
                    return Math.max(0, Integer.parseInt(new String(own.get(i).value(), StandardCharsets.UTF_8)));
                } catch (RuntimeException notACount) {
                    return 0;
                }
            }
        }
        return 0;
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
        if (record.foreign().orElse(null) instanceof Foreign.Refused refused) {
            return new Skip(record, Why.REFUSED, refusal(refused));
        }
        String target;
        if (to.isPresent()) {
            target = to.get();
        } else {
            Optional<String> source = sourceTopic(record);
            if (source.isEmpty()) {
                return new Skip(record, Why.NO_SOURCE, "no source topic: " + whyNoSource(record));
            }
            target = source.get();
            if (target.equals(record.topic())
                    || target.equals(ReplaySender.logTopic(record.topic()))
                    || target.startsWith("__")) {
                return new Skip(
                        record,
                        Why.NO_SOURCE,
                        "its source topic " + target + " is the dead-letter topic, its replay log or an internal"
                                + " topic; not sent there");
            }
        }
        List<Header> own = record.ownHeaders();
        int replays = replayCount(own);
        if (replays >= maxReplays) {
            return new Skip(
                    record,
                    Why.QUARANTINED,
                    "quarantined: replayed " + replays + " times and dead-lettered again each time (--max-replays"
                            + " raises the limit)");
        }
        // One set of replay headers, this replay's: an earlier replay's are dropped.
        own = own.stream()
                .filter(h -> !h.key().startsWith(HeaderNames.REPLAY_PREFIX))
                .toList();
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
        headers.add(PlainHeader.of(HeaderNames.REPLAY_COUNT, Integer.toString(replays + 1)));
        Long timestamp = record.timestamp() < 0 ? null : record.timestamp();
        return new Send(record, new ProducerRecord<>(target, null, timestamp, key, value, headers), what);
    }

    /**
     * {@code result}, or a skip when it would send to a topic not among {@code topics}: a source
     * topic a record names that is not there is not created by sending to it.
     */
    public static Result existing(Result result, java.util.Set<String> topics) {
        if (result instanceof Send send && !topics.contains(send.out().topic())) {
            return new Skip(
                    send.record(), Why.NO_SOURCE, "no topic " + send.out().topic() + " to replay to; not sent");
        }
        return result;
    }

    /** The operator's sentence for a refused foreign block. */
    public static String refusal(Foreign.Refused refused) {
        return "refused: headers named as " + refused.producer().label + "'s are not what it writes: "
                + refused.reason();
    }

    /** The topic the record was read from, as its annotation names it; empty when none can be trusted. */
    static Optional<String> sourceTopic(DeadLetter record) {
        if (record.annotation().isPresent()) {
            return Optional.of(record.annotation().get().source().topic());
        }
        return record.foreignAnnotation()
                .filter(f -> f.notReplayable().isEmpty())
                .map(f -> f.source().topic());
    }

    private static String whyNoSource(DeadLetter record) {
        return record.foreignAnnotation()
                .flatMap(Foreign.Annotated::notReplayable)
                .orElse("no annotation names where it was read from (replay it with --to)");
    }

    /** The key of a replay log entry: the dead-letter record's coordinates. */
    static byte[] logKey(DeadLetter record) {
        return record.coordinates().getBytes(StandardCharsets.UTF_8);
    }
}
