package dev.utf8sanitiser.core.content;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Well-formed text that hits the content rules often: every rule's code points and their
 * neighbours, line ends, byte order marks, and characters that normalisation composes, decomposes,
 * reorders or folds, mixed with ASCII and any scalar value.
 */
final class ContentInputs {
    private ContentInputs() {}

    /** Code points where some rule or some normalisation form has something to do. */
    private static final List<String> INTERESTING = List.of(
            "\u0000",
            "\u0001",
            "\u001F",
            "\t",
            "\n",
            "\r",
            "\r\n",
            "\u007F",
            "\u0080",
            "\u0085",
            "\u009F",
            "\u00A0",
            "\uFDD0",
            "\uFDEF",
            "\uFFFE",
            "\uFFFF",
            "\uDBFF\uDFFF",
            "\uD83F\uDFFE",
            "\uFEFF",
            "\uFEFF\uFEFF",
            "\uE000",
            "\uF8FF",
            "\uDB80\uDC00",
            "\uDBFF\uDFFD",
            "\u2028",
            "\u2029",
            "\u2027",
            "\u202A",
            // normalisation: combining marks of different classes, precomposed and decomposed letters,
            // Hangul jamo and syllables, compatibility characters, singletons, composition exclusions
            "e",
            "\u0301",
            "\u0316",
            "\u0327",
            "\u0308",
            "\u00E9",
            "\u00C5",
            "\u212B",
            "\u1EC7",
            "\u1100",
            "\u1161",
            "\u11A8",
            "\uAC00",
            "\uFB01",
            "\u2460",
            "\u00BD",
            "\u0344",
            "\u0958",
            "\u093C",
            "\u0915",
            "\u0F73",
            "\u2126",
            "\uFF21",
            "\u3099",
            "\u304B",
            "\uD834\uDD5E");

    static Arbitrary<byte[]> text() {
        Arbitrary<String> ascii = Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(12);
        Arbitrary<String> any = Arbitraries.integers()
                .between(0, 0x10FFFF)
                .filter(cp -> cp < 0xD800 || cp > 0xDFFF)
                .map(Character::toString);
        Arbitrary<String> interesting = Arbitraries.of(INTERESTING);
        Arbitrary<String> fragment =
                Arbitraries.frequencyOf(Tuple.of(3, ascii), Tuple.of(2, any), Tuple.of(5, interesting));
        return fragment.list().ofMaxSize(30).map(parts -> String.join("", parts).getBytes(StandardCharsets.UTF_8));
    }

    /** Any valid rules with any normalisation. */
    static Arbitrary<ContentPolicy> policies() {
        Arbitrary<ContentRules> rules = Arbitraries.maps(
                        Arbitraries.of(ContentRule.class), Arbitraries.of(ContentAction.class))
                .filter(m -> m.entrySet().stream().allMatch(e -> e.getKey().accepts(e.getValue())))
                .map(ContentRules::of);
        return Combinators.combine(rules, Arbitraries.of(Normalisation.class)).as(ContentPolicy::of);
    }
}
