package dev.utf8sanitiser.serdes.record;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentRules;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * {@link RecordSanitiser} decides a well-formed text record without its checks object; the oracle
 * is the same sanitiser given a text format that is not {@link ValueFormat#TEXT} itself, which
 * always takes the general path. Both must decide every record alike: keys checked or not, content
 * rules or none, headers to check or none, every policy.
 */
class WellFormedTextPassTest {
    private static final ValueFormat TEXT_BY_THE_GENERAL_PATH = (part, value, checks) -> checks.text(part, value);
    private static final ContentPolicy NUL_REJECTED = ContentPolicy.of(ContentRules.parse("NUL:reject"));

    @Property(tries = 3000)
    void decidesAsTheGeneralPath(
            @ForAll Policy policy,
            @ForAll boolean checkKey,
            @ForAll boolean contentRules,
            @ForAll boolean checkHeader,
            @ForAll("parts") byte[] key,
            @ForAll("parts") byte[] value,
            @ForAll("parts") byte[] headerValue) {
        ContentPolicy content = contentRules ? NUL_REJECTED : ContentPolicy.none();
        List<String> headersChecked = checkHeader ? List.of("h") : List.of();
        List<Header> headers = List.of(new RecordHeader("h", headerValue));

        Decision<RecordParts> decided = new RecordSanitiser(policy, content, ValueFormat.TEXT, checkKey, headersChecked)
                .decide(key, value, headers);
        Decision<RecordParts> oracle = new RecordSanitiser(
                        policy, content, TEXT_BY_THE_GENERAL_PATH, checkKey, headersChecked)
                .decide(key, value, headers);

        assertThat(describe(decided)).isEqualTo(describe(oracle));
    }

    /** Well-formed text (with NUL now and then), ill-formed bytes, and nulls. */
    @Provide
    Arbitrary<byte[]> parts() {
        Arbitrary<byte[]> text = Arbitraries.strings()
                .withCharRange('\u0000', '\u00ff')
                .withCharRange('\u3040', '\u30ff')
                .withCharRange('\ud800', '\udfff') // lone surrogates become '?' and pairs 4-byte forms
                .ofMaxLength(40)
                .map(s -> s.getBytes(UTF_8));
        Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(40);
        return Arbitraries.oneOf(text, text, bytes).injectNull(0.1);
    }

    /** A decision in words, its bytes in hex: the records' arrays compare by identity. */
    private static String describe(Decision<RecordParts> decision) {
        if (decision instanceof Decision.Changed<RecordParts> changed) {
            RecordParts parts = changed.fixed();
            return "changed " + changed.outcome() + " errors " + changed.errors() + " first "
                    + changed.first().map(WellFormedTextPassTest::describe).orElse("none")
                    + " key " + hex(parts.key()) + " value " + hex(parts.value()) + " headers "
                    + parts.headers().stream()
                            .map(h -> h.key() + "=" + hex(h.value()))
                            .collect(Collectors.joining(","));
        }
        if (decision instanceof Decision.DeadLetter<RecordParts> dead) {
            return "dead letter " + dead.rule() + " errors " + dead.errors() + " first " + describe(dead.first());
        }
        return "pass";
    }

    private static String describe(Finding finding) {
        return finding.part() + " " + finding.field() + " " + finding.rule() + " at " + finding.offset() + "+"
                + finding.length() + " highlighted " + finding.highlighted() + " in " + hex(finding.bytes());
    }

    private static String hex(byte[] bytes) {
        return bytes == null ? "null" : HexFormat.of().formatHex(bytes);
    }
}
