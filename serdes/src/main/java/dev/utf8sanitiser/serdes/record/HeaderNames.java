package dev.utf8sanitiser.serdes.record;

/**
 * The header names of docs/dlq.md (a contract). The {@code __streams.errors.*} names are those Kafka
 * Streams' own dead-letter queue writes (KIP-1034), so existing DLQ tooling reads our records too;
 * a test pins them to Kafka's constants.
 */
public final class HeaderNames {
    public static final String RULE = "__utf8.rule";
    public static final String OFFSET = "__utf8.offset";
    public static final String LENGTH = "__utf8.length";
    public static final String ERRORS = "__utf8.errors";
    public static final String PART = "__utf8.part";
    public static final String FIELD = "__utf8.field";
    public static final String CONTEXT = "__utf8.context";
    public static final String POLICY = "__utf8.policy";
    public static final String ACTION = "__utf8.action";
    public static final String SOURCE_TOPIC = "__utf8.source.topic";
    public static final String SOURCE_PARTITION = "__utf8.source.partition";
    public static final String SOURCE_OFFSET = "__utf8.source.offset";
    public static final String SOURCE_TIMESTAMP = "__utf8.source.timestamp";
    public static final String SIZE = "__utf8.size";
    public static final String LIMIT = "__utf8.limit";
    public static final String CAUSE = "__utf8.cause";
    public static final String OMITTED = "__utf8.omitted";
    /** The prefix of the headers {@code dlq replay} adds. */
    public static final String REPLAY_PREFIX = "__utf8.replay.";

    public static final String REPLAY_TOPIC = "__utf8.replay.topic";
    public static final String REPLAY_PARTITION = "__utf8.replay.partition";
    public static final String REPLAY_OFFSET = "__utf8.replay.offset";
    public static final String REPLAY_POLICY = "__utf8.replay.policy";
    /** How many times the record has been replayed, this time included: 1 on the first replay. */
    public static final String REPLAY_COUNT = "__utf8.replay.count";

    public static final String STREAMS_EXCEPTION = "__streams.errors.exception";
    public static final String STREAMS_MESSAGE = "__streams.errors.message";
    public static final String STREAMS_TOPIC = "__streams.errors.topic";
    public static final String STREAMS_PARTITION = "__streams.errors.partition";
    public static final String STREAMS_OFFSET = "__streams.errors.offset";

    private HeaderNames() {}
}
