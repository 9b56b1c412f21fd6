package dev.utf8sanitiser.core;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class Utf16Test {

    @Property
    void withoutLoneSurrogatesTheBytesAreUtf8(@ForAll String s) {
        if (Utf16.firstLoneSurrogate(s) < 0) {
            assertThat(Utf16.generalisedUtf8(s)).isEqualTo(s.getBytes(UTF_8));
            assertThat(Utf16.replaceLoneSurrogates(s)).isSameAs(s);
        }
    }

    @Property
    void eachLoneSurrogateIsWhereTheValidatorFindsASurrogate(@ForAll String s) {
        byte[] bytes = Utf16.generalisedUtf8(s);
        int lone = Utf16.firstLoneSurrogate(s);

        assertThat(bytes).hasSize(Utf16.utf8Length(s, 0, s.length()));
        if (lone < 0) {
            assertThat(Utf8Validator.isWellFormed(bytes)).isTrue();
        } else {
            var error = Utf8Validator.firstError(bytes).orElseThrow();
            assertThat(error.rule()).isEqualTo(Rule.SURROGATE);
            assertThat(error.offset()).isEqualTo(Utf16.utf8Length(s, 0, lone));
        }
        assertThat(Utf8Validator.isWellFormed(Utf16.replaceLoneSurrogates(s).getBytes(UTF_8)))
                .isTrue();
    }

    @Property
    void theLoneSurrogatesReportedAreTheValidatorsSurrogateErrorsInTheGeneralisedUtf8(@ForAll String s) {
        List<Utf8Error> reported = new ArrayList<>();
        int count = Utf16.forEachLoneSurrogate(s, reported::add);

        List<Utf8Error> expected = Utf8Validator.errors(Utf16.generalisedUtf8(s)).stream()
                .filter(error -> error.rule() == Rule.SURROGATE)
                .toList();
        assertThat(reported).isEqualTo(expected);
        assertThat(count).isEqualTo(expected.size());
    }

    @Test
    void aLoneSurrogateIsReportedAtItsUtf8Offset() {
        List<Utf8Error> reported = new ArrayList<>();
        Utf16.forEachLoneSurrogate("a\u00e9\uD800b\uD83D\uDE00\uDFFF", reported::add);

        // a (1) + é (2) -> 3; then ED A0 80 (3) + b (1) + the pair (4) -> 11
        assertThat(reported).containsExactly(new Utf8Error(3, 1, Rule.SURROGATE), new Utf8Error(11, 1, Rule.SURROGATE));
    }

    @Test
    void findsHighAndLowLoneSurrogatesButNotPairs() {
        assertThat(Utf16.firstLoneSurrogate("ab\uD83D\uDE00")).isEqualTo(-1);
        assertThat(Utf16.firstLoneSurrogate("a\uD83D")).isEqualTo(1);
        assertThat(Utf16.firstLoneSurrogate("a\uDE00\uD83D")).isEqualTo(1);
        assertThat(Utf16.nextLoneSurrogate("a\uDE00\uD83D", 2)).isEqualTo(2);
        assertThat(Utf16.replaceLoneSurrogates("\uDE00\uD83D\uDE00\uD83D")).isEqualTo("\uFFFD\uD83D\uDE00\uFFFD");
    }

    @Test
    void aLoneSurrogateTakesTheThreeBytesCesu8WritesForIt() {
        assertThat(Utf16.generalisedUtf8("\uD800")).containsExactly(0xED, 0xA0, 0x80);
        assertThat(Utf16.generalisedUtf8("\uDFFF")).containsExactly(0xED, 0xBF, 0xBF);
    }
}
