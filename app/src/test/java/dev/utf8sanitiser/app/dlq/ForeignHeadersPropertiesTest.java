package dev.utf8sanitiser.app.dlq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Hostile header values: whatever names and bytes a record carries, reading it never throws, a
 * foreign annotation read whole says exactly what its headers say under the tool's encoding, and a
 * replay to the source goes only to a legal topic the record names, never to the dead-letter topic,
 * its log or an internal topic.
 */
class ForeignHeadersPropertiesTest {
    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    private static final List<String> NAMES = new ArrayList<>();

    static {
        NAMES.addAll(ForeignHeaders.STREAMS_BLOCK);
        NAMES.addAll(ForeignHeaders.CONNECT_BLOCK);
        NAMES.addAll(ForeignHeaders.SPRING_NAMES);
        NAMES.addAll(ForeignHeaders.RULE_BLOCK);
        NAMES.addAll(List.of("trace-id", "__utf8.rule", "__connect.errors.other", "kafka_dlt-", "__rule."));
    }

    @Provide
    Arbitrary<byte[]> values() {
        return Arbitraries.oneOf(
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(12),
                        Arbitraries.of(
                                        "orders",
                                        "orders.dlq",
                                        "orders.dlq.replayed",
                                        "__consumer_offsets",
                                        "0",
                                        "-1",
                                        "01",
                                        "2147483648",
                                        "9223372036854775807",
                                        " 1",
                                        "../x",
                                        "",
                                        "READ",
                                        "WRITE")
                                .map(s -> s.getBytes(UTF_8)),
                        Arbitraries.integers()
                                .map(n -> ByteBuffer.allocate(4).putInt(n).array()),
                        Arbitraries.longs()
                                .map(n -> ByteBuffer.allocate(8).putLong(n).array()))
                .injectNull(0.1);
    }

    @Provide
    Arbitrary<List<Header>> headers() {
        Arbitrary<Header> header =
                Combinators.combine(Arbitraries.of(NAMES), values()).as((name, value) -> new RecordHeader(name, value));
        Arbitrary<List<Header>> random = header.list().ofMaxSize(14);
        Arbitrary<String> topics = Arbitraries.of("orders", "orders.dlq", "orders.dlq.replayed", "__consumer_offsets");
        // Whole blocks as the tools write them, naming topics good and bad, after random headers.
        Arbitrary<List<Header>> block = Arbitraries.oneOf(
                topics.map(t -> ForeignHeadersTest.connect(t, "1", "12")),
                topics.map(t -> ForeignHeadersTest.spring(
                        List.of(), t, ForeignHeadersTest.intBytes(1), ForeignHeadersTest.longBytes(12))),
                topics.map(t -> ForeignHeadersTest.rule("READ", t)));
        Arbitrary<List<Header>> withBlock = Combinators.combine(random, block).as((before, tail) -> {
            List<Header> all = new ArrayList<>(before);
            all.addAll(tail);
            return all;
        });
        return Arbitraries.oneOf(random, withBlock);
    }

    @Property(tries = 3000)
    void anyHeadersAreReadWithoutThrowingAndReplayOnlyWhereTheyTrulySay(@ForAll("headers") List<Header> headers) {
        DeadLetter record = DeadLetterRecords.at(5, new byte[] {1}, headers);
        Replay.Result result =
                new Replay(Optional.empty(), Optional.empty(), Map.of(), Replay.DEFAULT_MAX_REPLAYS).of(record);

        record.foreignAnnotation().ifPresent(a -> {
            assertThat(a.source().topic()).matches(TOPIC);
            a.source().partition().ifPresent(p -> assertThat(p).isNotNegative());
            a.source().offset().ifPresent(o -> assertThat(o).isNotNegative());
            assertThat(a.blockStart()).isBetween(0, headers.size() - 1);
        });
        if (result instanceof Replay.Send send) {
            String target = send.out().topic();
            assertThat(target).matches(TOPIC).doesNotStartWith("__").isNotIn("orders.dlq", "orders.dlq.replayed");
            String named = record.annotation()
                    .map(h -> h.source().topic())
                    .orElseGet(() ->
                            record.foreignAnnotation().orElseThrow().source().topic());
            assertThat(target).isEqualTo(named);
        } else {
            assertThat(((Replay.Skip) result).reason()).isNotBlank();
        }
        if (record.foreignAnnotation()
                        .filter(a -> a.source().topic().equals("orders"))
                        .isPresent()
                && record.foreignAnnotation().get().notReplayable().isEmpty()) {
            assertThat(result)
                    .as("a whole block naming a good topic is replayed")
                    .isInstanceOf(Replay.Send.class);
        }
        if (record.foreign().orElse(null) instanceof Foreign.Refused) {
            assertThat(result).isInstanceOf(Replay.Skip.class);
        }
    }

    /** A Connect block with one value replaced: refused, or read as exactly what the headers say. */
    @Property(tries = 2000)
    void aConnectBlockWithOneHostileValueSaysWhatItsHeadersSayOrIsRefused(
            @ForAll("slot") int slot, @ForAll("values") byte[] value) {
        List<Header> headers = new ArrayList<>(ForeignHeadersTest.connect("orders", "1", "12"));
        headers.set(slot, new RecordHeader(headers.get(slot).key(), value));
        DeadLetter record = DeadLetterRecords.at(5, new byte[] {1}, headers);

        assertThat(record.foreign()).isPresent();
        if (record.foreignAnnotation().isPresent()) {
            Foreign.Source source = record.foreignAnnotation().get().source();
            assertThat(source.topic()).isEqualTo(text(headers.get(1)));
            assertThat(Long.toString(source.partition().getAsInt())).isEqualTo(text(headers.get(2)));
            assertThat(Long.toString(source.offset().getAsLong())).isEqualTo(text(headers.get(3)));
        }
    }

    /** A Spring block with hostile coordinates: refused, or read as the big-endian numbers they are. */
    @Property(tries = 2000)
    void aSpringBlockWithHostileCoordinatesSaysWhatTheySayOrIsRefused(
            @ForAll("values") byte[] partition, @ForAll("values") byte[] offset) {
        List<Header> headers = ForeignHeadersTest.spring(List.of(), "orders", partition, offset);
        DeadLetter record = DeadLetterRecords.at(5, new byte[] {1}, headers);

        assertThat(record.foreign()).isPresent();
        boolean valid = partition != null
                && partition.length == 4
                && ByteBuffer.wrap(partition).getInt() >= 0
                && offset != null
                && offset.length == 8
                && ByteBuffer.wrap(offset).getLong() >= 0;
        assertThat(record.foreignAnnotation().isPresent()).isEqualTo(valid);
        if (valid) {
            Foreign.Source source = record.foreignAnnotation().get().source();
            assertThat(source.partition().getAsInt())
                    .isEqualTo(ByteBuffer.wrap(partition).getInt());
            assertThat(source.offset().getAsLong())
                    .isEqualTo(ByteBuffer.wrap(offset).getLong());
        }
    }

    @Provide
    Arbitrary<Integer> slot() {
        return Arbitraries.integers().between(1, 10);
    }

    private static String text(Header header) {
        return new String(header.value(), UTF_8);
    }
}
