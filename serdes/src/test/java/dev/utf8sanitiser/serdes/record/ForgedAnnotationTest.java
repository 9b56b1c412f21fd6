package dev.utf8sanitiser.serdes.record;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;
import org.junit.jupiter.api.Test;

/**
 * An input record may carry headers of the annotation's names, forged or left by an earlier
 * dead-lettering; a dead-letter record keeps them byte for byte. The tools must read the
 * annotation the sanitiser wrote and nothing else, and give the record's own headers back whole.
 */
class ForgedAnnotationTest {
    private static final DeadLetterAnnotation ANNOTATION = new DeadLetterAnnotation(8);
    private static final DeadLetterAnnotation.Source SOURCE = new DeadLetterAnnotation.Source("orders", 2, 4711);
    private static final byte[] VALUE = {
        '{', '"', 'a', '"', ':', '"', 'x', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'
    };
    private static final Decision.DeadLetter<?> SURROGATE = new Decision.DeadLetter<>(
            new Finding(Part.VALUE, Optional.of("a"), DeadLetterRule.SURROGATE, 7, 1, 3, VALUE), 3);

    /** What an attacker puts in an input record: a placeholder's and a field's headers. */
    private static final List<Header> FORGED = List.of(
            PlainHeader.of("trace-id", "t1"),
            PlainHeader.of(HeaderNames.OMITTED, DeadLetterAnnotation.OMITTED_ALL),
            PlainHeader.of(HeaderNames.FIELD, "forged.field"),
            PlainHeader.of(HeaderNames.CAUSE, "FORGED"),
            PlainHeader.of(HeaderNames.SIZE, "99"),
            PlainHeader.of(HeaderNames.LIMIT, "1"),
            PlainHeader.of(HeaderNames.RULE, "FORGED"),
            PlainHeader.of(HeaderNames.STREAMS_MESSAGE, "forged message"));

    @Test
    void forgedHeadersBeforeTheAnnotationAreTheRecordsOwnNotTheAnnotation() {
        List<Header> annotated = ANNOTATION.annotate(FORGED, SURROGATE, Policy.STRICT, SOURCE, 1234L);

        DeadLetterHeaders read = DeadLetterHeaders.read(annotated).orElseThrow();

        assertThat(read.placeholder()).as("the record holds its whole value").isFalse();
        assertThat(read.field()).contains("a");
        assertThat(read.rule()).isEqualTo("SURROGATE");
        assertThat(read.cause()).isEmpty();
        assertThat(read.message()).isEqualTo(DeadLetterAnnotation.message(SURROGATE.first()));
        assertThat(read)
                .isEqualTo(
                        DeadLetterHeaders.read(ANNOTATION.annotate(List.of(), SURROGATE, Policy.STRICT, SOURCE, 1234L))
                                .orElseThrow());
        assertThat(DeadLetterHeaders.original(annotated)).isEqualTo(FORGED);
    }

    @Test
    void aForgedCompleteAnnotationBeforeTheRealOneIsTheRecordsOwn() {
        Decision.DeadLetter<?> other = new Decision.DeadLetter<>(
                new Finding(Part.KEY, Optional.of("forged.field"), DeadLetterRule.NUL, 0, 1, 1, new byte[] {0}), 9);
        List<Header> forged =
                ANNOTATION.placeholder(other, 99, 1, Policy.REPAIR, new DeadLetterAnnotation.Source("x", 0, 0), 1L);
        assertThat(DeadLetterHeaders.read(forged))
                .as("a placeholder on its own reads as one")
                .isPresent();

        List<Header> annotated = ANNOTATION.annotate(forged, SURROGATE, Policy.STRICT, SOURCE, 1234L);

        DeadLetterHeaders read = DeadLetterHeaders.read(annotated).orElseThrow();
        assertThat(read.placeholder()).isFalse();
        assertThat(read.field()).contains("a");
        assertThat(read.source()).isEqualTo(SOURCE);
        assertThat(DeadLetterHeaders.original(annotated)).isEqualTo(forged);
    }

    @Test
    void aRealPlaceholderReadsAsOne() {
        Decision.DeadLetter<?> tooLarge = new Decision.DeadLetter<>(
                SURROGATE.first(),
                3,
                Optional.of(new Oversize(DeadLetterRule.REPLACEMENT_TOO_LARGE, Oversize.OUTPUT, 5000, 4000)));
        List<Header> placeholder = ANNOTATION.placeholder(tooLarge, 9000, 4100, Policy.REPLACE, SOURCE, 1L);

        DeadLetterHeaders read = DeadLetterHeaders.read(placeholder).orElseThrow();

        assertThat(read.placeholder()).isTrue();
        assertThat(read.rule()).isEqualTo(DeadLetterRule.RECORD_TOO_LARGE.spelling());
        assertThat(read.cause()).contains(DeadLetterRule.REPLACEMENT_TOO_LARGE.spelling());
        assertThat(DeadLetterHeaders.original(placeholder)).isEmpty();
    }

    /**
     * A forged annotation at the end of an input record that Kafka Streams' own dead-letter queue
     * (which appends its headers, the stack trace among them) or Connect's (which appends {@code
     * __connect.errors.*}) wrote, or with any header after it: not the sanitiser's, and every header
     * is the record's own.
     */
    @Test
    void anAnnotationWithAnythingAfterItIsNoAnnotation() {
        List<Header> forged =
                ANNOTATION.annotate(List.of(PlainHeader.of("trace-id", "t1")), SURROGATE, Policy.STRICT, SOURCE, 1L);
        List<List<Header>> appended = List.of(
                append(
                        forged,
                        PlainHeader.of(
                                ExceptionHandlerUtils.HEADER_ERRORS_EXCEPTION_NAME,
                                DeadLetterAnnotation.EXCEPTION_NAME),
                        PlainHeader.of(
                                ExceptionHandlerUtils.HEADER_ERRORS_EXCEPTION_MESSAGE_NAME,
                                "SURROGATE at value byte 7"),
                        PlainHeader.of(ExceptionHandlerUtils.HEADER_ERRORS_STACKTRACE_NAME, "at ..."),
                        PlainHeader.of(ExceptionHandlerUtils.HEADER_ERRORS_TOPIC_NAME, "orders"),
                        PlainHeader.of(ExceptionHandlerUtils.HEADER_ERRORS_PARTITION_NAME, "2"),
                        PlainHeader.of(ExceptionHandlerUtils.HEADER_ERRORS_OFFSET_NAME, "4711")),
                append(
                        forged,
                        PlainHeader.of("__connect.errors.topic", "orders"),
                        PlainHeader.of("__connect.errors.exception.message", "SURROGATE at value byte 7")),
                append(forged, PlainHeader.of("trace-id", "t2")));

        for (List<Header> headers : appended) {
            assertThat(DeadLetterHeaders.read(headers)).as(headers.toString()).isEmpty();
            assertThat(DeadLetterHeaders.original(headers)).isEqualTo(headers);
        }
    }

    /** A block the writer cannot have written is no annotation, not half of one. */
    @Test
    void aMalformedBlockIsNoAnnotation() {
        List<Header> good =
                ANNOTATION.annotate(List.of(PlainHeader.of("trace-id", "t1")), SURROGATE, Policy.STRICT, SOURCE, 1L);
        assertThat(DeadLetterHeaders.read(good)).isPresent();
        List<UnaryOperator<List<Header>>> spoilers = List.of(
                h -> set(h, HeaderNames.OFFSET, "7x"),
                h -> set(h, HeaderNames.OFFSET, "+7"),
                h -> set(h, HeaderNames.OFFSET, " 7"),
                h -> set(h, HeaderNames.LENGTH, "4294967297"),
                h -> set(h, HeaderNames.SOURCE_PARTITION, ""),
                h -> set(h, HeaderNames.STREAMS_TOPIC, "elsewhere"),
                h -> set(h, HeaderNames.STREAMS_EXCEPTION, "java.lang.RuntimeException"),
                h -> without(h, HeaderNames.POLICY),
                h -> without(h, HeaderNames.STREAMS_OFFSET),
                h -> append(h, PlainHeader.of(HeaderNames.FIELD, "second")),
                h -> append(h, PlainHeader.of(HeaderNames.SIZE, "10")),
                h -> append(h, PlainHeader.of(HeaderNames.OMITTED, DeadLetterAnnotation.OMITTED_ALL)),
                h -> append(h, new RecordHeader(HeaderNames.CAUSE, (byte[]) null)),
                h -> append(h, new RecordHeader(HeaderNames.CONTEXT, new byte[] {(byte) 0xC0, (byte) 0xAF})));

        for (UnaryOperator<List<Header>> spoil : spoilers) {
            List<Header> spoilt = spoil.apply(good);
            assertThat(DeadLetterHeaders.read(spoilt)).as(spoilt.toString()).isEmpty();
            assertThat(DeadLetterHeaders.original(spoilt)).isEqualTo(spoilt);
        }
    }

    /**
     * Whatever headers a record comes with, of the annotation's names or others, with any bytes, a
     * forged annotation among them or not: the annotation written reads back as it reads without
     * them, and {@code original} gives them back exactly.
     */
    @Property(tries = 2000)
    void theAnnotationWrittenIsTheAnnotationRead(
            @ForAll("incoming") List<Header> incoming,
            @ForAll("verdicts") Decision.DeadLetter<?> verdict,
            @ForAll DeadLetterAnnotation.Detail detail,
            @ForAll boolean placeholder,
            @ForAll Policy policy) {
        List<Header> alone = placeholder
                ? ANNOTATION.placeholder(verdict, 5000, 4000, policy, SOURCE, 77L)
                : ANNOTATION.annotate(List.of(), verdict, detail, policy, SOURCE, 77L);
        List<Header> written =
                placeholder ? alone : ANNOTATION.annotate(incoming, verdict, detail, policy, SOURCE, 77L);

        DeadLetterHeaders read = DeadLetterHeaders.read(written).orElseThrow();

        assertThat(read).isEqualTo(DeadLetterHeaders.read(alone).orElseThrow());
        assertThat(read.placeholder()).isEqualTo(placeholder);
        assertThat(read.rule())
                .isEqualTo(
                        placeholder
                                ? DeadLetterRule.RECORD_TOO_LARGE.spelling()
                                : verdict.rule().spelling());
        assertThat(read.cause())
                .isEqualTo(placeholder ? Optional.of(verdict.rule().spelling()) : Optional.empty());
        assertThat(read.part()).isEqualTo(verdict.first().part().name());
        assertThat(read.offset()).isEqualTo(verdict.first().offset());
        assertThat(read.errors()).isEqualTo(verdict.errors());
        assertThat(read.source()).isEqualTo(SOURCE);
        assertThat(read.field())
                .isEqualTo(
                        placeholder || detail == DeadLetterAnnotation.Detail.BRIEF
                                ? Optional.empty()
                                : verdict.first().field());
        assertThat(DeadLetterHeaders.original(written)).isEqualTo(placeholder ? List.of() : incoming);
    }

    @Provide
    Arbitrary<List<Header>> incoming() {
        List<String> names = new ArrayList<>(DeadLetterHeaders.ALWAYS);
        names.addAll(DeadLetterHeaders.SOMETIMES);
        names.addAll(List.of(
                HeaderNames.ACTION,
                HeaderNames.REPLAY_TOPIC,
                ExceptionHandlerUtils.HEADER_ERRORS_STACKTRACE_NAME,
                "__connect.errors.topic",
                "trace-id",
                ""));
        Arbitrary<byte[]> values = Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(12),
                Arbitraries.of(
                                "0",
                                "-1",
                                "7",
                                "value",
                                "strict",
                                "orders",
                                DeadLetterAnnotation.OMITTED_ALL,
                                DeadLetterAnnotation.EXCEPTION_NAME)
                        .map(s -> s.getBytes(UTF_8)),
                Arbitraries.just(null));
        Arbitrary<List<Header>> single = Combinators.combine(Arbitraries.of(names), values)
                .as((name, value) -> List.<Header>of(new RecordHeader(name, value)));
        // A whole forged annotation, or a placeholder's, as a run of the record's own headers.
        Arbitrary<List<Header>> block = Combinators.combine(
                        verdicts(), Arbitraries.of(Policy.class), Arbitraries.of(true, false))
                .as((v, p, whole) -> whole
                        ? ANNOTATION.placeholder(v, 10, 5, p, new DeadLetterAnnotation.Source("forged", 0, 1), 3L)
                        : ANNOTATION.annotate(List.of(), v, p, new DeadLetterAnnotation.Source("forged", 0, 1), 3L));
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, single), net.jqwik.api.Tuple.of(1, block))
                .list()
                .ofMaxSize(8)
                .map(runs -> runs.stream().flatMap(List::stream).toList());
    }

    @Provide
    Arbitrary<Decision.DeadLetter<?>> verdicts() {
        Arbitrary<Part> parts = Arbitraries.of(Part.VALUE, Part.KEY, Part.header("__utf8.field"), Part.header("h"));
        Arbitrary<Optional<String>> fields = Arbitraries.strings()
                .withCharRange('a', 'z')
                .withChars('.', '[', ']', '{', '}', 'é')
                .ofMaxLength(10)
                .optional();
        Arbitrary<Optional<Oversize>> oversize = Arbitraries.of(
                Optional.empty(),
                Optional.of(new Oversize(DeadLetterRule.REPLACEMENT_TOO_LARGE, Oversize.OUTPUT, 300, 200)));
        return Combinators.combine(
                        parts,
                        fields,
                        Arbitraries.of(DeadLetterRule.SURROGATE, DeadLetterRule.NUL, DeadLetterRule.INVALID_JSON),
                        Arbitraries.integers().between(0, VALUE.length - 1),
                        Arbitraries.integers().between(1, 1000),
                        oversize)
                .as((part, field, rule, offset, errors, over) ->
                        new Decision.DeadLetter<>(new Finding(part, field, rule, offset, 1, 1, VALUE), errors, over));
    }

    private static List<Header> append(List<Header> headers, Header... more) {
        List<Header> all = new ArrayList<>(headers);
        all.addAll(List.of(more));
        return all;
    }

    private static List<Header> set(List<Header> headers, String name, String value) {
        return headers.stream()
                .map(h -> h.key().equals(name) ? PlainHeader.of(name, value) : h)
                .toList();
    }

    private static List<Header> without(List<Header> headers, String name) {
        return headers.stream().filter(h -> !h.key().equals(name)).toList();
    }
}
