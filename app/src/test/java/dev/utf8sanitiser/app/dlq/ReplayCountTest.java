package dev.utf8sanitiser.app.dlq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * Each replayed record says how many times it has been replayed; one that keeps coming back to a
 * dead-letter topic is quarantined at the limit instead of going round again.
 */
class ReplayCountTest {
    private static final byte[] VALUE = "v".getBytes(UTF_8);

    @Test
    void theFirstReplayIsCountOneAndEachLaterOneAddsOne() {
        Replay replay = new Replay("orders", Optional.empty(), Map.of());

        Replay.Send first = (Replay.Send) replay.of(record(List.of(PlainHeader.of("trace-id", "t1"))));
        assertThat(values(first, HeaderNames.REPLAY_COUNT)).containsExactly("1");
        assertThat(values(first, "trace-id")).containsExactly("t1");

        // Sent, dead-lettered again with the first replay's headers among its own, replayed again.
        Replay.Send second = (Replay.Send) replay.of(record(headersOf(first)));
        assertThat(values(second, HeaderNames.REPLAY_COUNT)).containsExactly("2");
        assertThat(values(second, HeaderNames.REPLAY_TOPIC))
                .as("one set of replay headers, this replay's")
                .containsExactly("orders.dlq");
        assertThat(values(second, "trace-id")).containsExactly("t1");
    }

    @Test
    void aRecordReplayedAsOftenAsTheLimitIsQuarantined() {
        Replay replay = new Replay("orders", Optional.empty(), Map.of(), 3);
        Replay.Result third = replay.of(record(List.of(PlainHeader.of(HeaderNames.REPLAY_COUNT, "2"))));
        assertThat(third).isInstanceOf(Replay.Send.class);

        Replay.Result fourth = replay.of(record(List.of(PlainHeader.of(HeaderNames.REPLAY_COUNT, "3"))));
        assertThat(fourth).isInstanceOfSatisfying(Replay.Skip.class, skip -> {
            assertThat(skip.why()).isEqualTo(Replay.Why.QUARANTINED);
            assertThat(skip.reason()).contains("replayed 3 times").contains("--max-replays");
        });
        assertThat(new Replay("orders", Optional.empty(), Map.of(), 4)
                        .of(record(List.of(PlainHeader.of(HeaderNames.REPLAY_COUNT, "3")))))
                .as("a higher limit lets it through")
                .isInstanceOf(Replay.Send.class);
    }

    @Test
    void aCountThatIsNotANumberCountsAsNone() {
        Replay replay = new Replay("orders", Optional.empty(), Map.of());
        Replay.Send send = (Replay.Send) replay.of(record(List.of(PlainHeader.of(HeaderNames.REPLAY_COUNT, "many"))));
        assertThat(values(send, HeaderNames.REPLAY_COUNT)).containsExactly("1");
    }

    private static List<Header> headersOf(Replay.Send send) {
        List<Header> headers = new ArrayList<>();
        send.out().headers().forEach(headers::add);
        return headers;
    }

    private static List<String> values(Replay.Send send, String key) {
        List<String> values = new ArrayList<>();
        for (Header header : send.out().headers()) {
            if (header.key().equals(key)) {
                values.add(new String(header.value(), UTF_8));
            }
        }
        return values;
    }

    private static DeadLetter record(List<Header> headers) {
        return DeadLetterRecords.at(7, VALUE, headers);
    }
}
