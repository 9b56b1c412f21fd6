package dev.utf8sanitiser.connect;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.Utf8Validator;
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
