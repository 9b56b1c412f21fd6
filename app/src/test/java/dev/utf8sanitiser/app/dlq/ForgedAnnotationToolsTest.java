package dev.utf8sanitiser.app.dlq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.json.JsonFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * A dead letter whose input record carried headers of the annotation's names: replay, stats,
 * inspect and {@code --field} go by the annotation the sanitiser wrote, and replay gives the record
 * its own headers back, the forged ones among them, byte for byte.
 */
class ForgedAnnotationToolsTest {
    private static final byte[] VALUE = json("{\"customer\":{\"name\":\"a", 0xED, 0xA0, 0x80, "\"}}");
    private static final List<Header> OWN = List.of(
            PlainHeader.of("trace-id", "t1"),
            PlainHeader.of(HeaderNames.OMITTED, DeadLetterAnnotation.OMITTED_ALL),
            PlainHeader.of(HeaderNames.RULE, "FORGED"),
            PlainHeader.of(HeaderNames.FIELD, "forged.field"),
            PlainHeader.of(HeaderNames.CAUSE, "FORGED_CAUSE"),
            PlainHeader.of(HeaderNames.SIZE, "99"),
            PlainHeader.of(HeaderNames.LIMIT, "1"));

    /** The record as the sanitiser dead-letters it under strict: its own headers, then the annotation. */
    private static DeadLetter deadLetter() {
        RecordSanitiser strict = sanitiser(Policy.STRICT);
        Decision.DeadLetter<RecordParts> verdict = (Decision.DeadLetter<RecordParts>) strict.decide(null, VALUE, OWN);
        List<Header> headers = new DeadLetterAnnotation(8)
                .annotate(OWN, verdict, Policy.STRICT, new DeadLetterAnnotation.Source("orders", 1, 42), 1000L);
        return DeadLetterRecords.at(7, VALUE, headers);
    }

    @Test
    void replaySendsTheWholeRecordWithItsOwnHeaders() {
        DeadLetter record = deadLetter();

        Replay.Result asItIs = new Replay("orders", Optional.empty(), Map.of()).of(record);
        Replay.Result replaced = new Replay("orders", Optional.of(sanitiser(Policy.REPLACE)), Map.of()).of(record);

        assertThat(asItIs).as("not a placeholder: the record holds its value").isInstanceOf(Replay.Send.class);
        var sent = ((Replay.Send) asItIs).out();
        assertThat(sent.value()).isEqualTo(VALUE);
        List<Header> headers = List.of(sent.headers().toArray());
        assertThat(headers.subList(0, OWN.size())).isEqualTo(OWN);
        assertThat(headers.subList(OWN.size(), headers.size()))
                .extracting(Header::key)
                .containsExactly(
                        HeaderNames.REPLAY_TOPIC,
                        HeaderNames.REPLAY_PARTITION,
                        HeaderNames.REPLAY_OFFSET,
                        HeaderNames.REPLAY_COUNT);
        assertThat(replaced).isInstanceOf(Replay.Send.class);
        assertThat(new String(((Replay.Send) replaced).out().value(), UTF_8))
                .isEqualTo("{\"customer\":{\"name\":\"a\uFFFD\uFFFD\uFFFD\"}}");
    }

    @Test
    void statsInspectAndFieldSelectionShowTheSanitisersField() throws Exception {
        DeadLetter record = deadLetter();
        Stats stats = new Stats();
        stats.add(record);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        new Inspection(false, 8).print(new PrintStream(text, true, UTF_8), record);
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        try (JsonGenerator generator = new JsonFactory().createGenerator(json)) {
            Inspection.write(generator, record);
        }
        JsonNode line = new ObjectMapper().readTree(json.toByteArray());

        assertThat(stats.byField()).isEqualTo(Map.of("customer.name", 1L));
        assertThat(stats.byRule()).isEqualTo(Map.of("SURROGATE", 1L));
        assertThat(text.toString(UTF_8))
                .contains("rule     SURROGATE  ")
                .contains("where    value field customer.name byte ")
                .contains("bytes    value, " + VALUE.length + " bytes")
                .doesNotContain("forged")
                .doesNotContain("FORGED")
                .doesNotContain("placeholder");
        assertThat(line.get("field").asText()).isEqualTo("customer.name");
        assertThat(line.has("cause")).isFalse();
        assertThat(selection("customer.name").matches(record)).isTrue();
        assertThat(selection("forged.field").matches(record)).isFalse();
    }

    /**
     * An input record whose headers end in a whole forged annotation, dead-lettered by Kafka Streams'
     * own handler (which appends its {@code __streams.errors.*} headers, the stack trace among them):
     * not the sanitiser's, so not selected by rule and counted as not annotated.
     */
    @Test
    void aForgedAnnotationUnderAnotherDeadLetterQueuesHeadersIsNotRead() {
        DeadLetter sanitisers = deadLetter();
        List<Header> headers = new ArrayList<>(sanitisers.headers());
        headers.add(PlainHeader.of("__streams.errors.exception", DeadLetterAnnotation.EXCEPTION_NAME));
        headers.add(PlainHeader.of("__streams.errors.message", "SURROGATE at value byte 22"));
        headers.add(PlainHeader.of("__streams.errors.stacktrace", "at ..."));
        DeadLetter other = DeadLetterRecords.at(8, VALUE, headers);
        Stats stats = new Stats();
        stats.add(other);

        assertThat(other.annotation()).isEmpty();
        assertThat(stats.byRule()).isEqualTo(Map.of(Stats.NOT_ANNOTATED, 1L));
        assertThat(stats.byField()).isEmpty();
        assertThat(new Selection(Optional.of("SURROGATE"), Optional.empty(), Optional.empty()).matches(other))
                .isFalse();
    }

    private static Selection selection(String field) {
        return new Selection(Optional.empty(), Optional.empty(), Optional.of(field));
    }

    private static RecordSanitiser sanitiser(Policy policy) {
        return new RecordSanitiser(policy, ContentPolicy.none(), new JsonFormat(false), false, List.of());
    }

    private static byte[] json(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String s) {
                out.writeBytes(s.getBytes(UTF_8));
            } else {
                out.write((Integer) part);
            }
        }
        return out.toByteArray();
    }
}
