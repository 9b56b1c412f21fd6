package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ContentRulesTest {

    @Test
    void parsesRuleActionPairs() {
        ContentRules rules = ContentRules.parse("NUL:reject,C1_CONTROL:strip");
        assertThat(rules.actionFor(ContentRule.NUL)).isEqualTo(ContentAction.REJECT);
        assertThat(rules.actionFor(ContentRule.C1_CONTROL)).isEqualTo(ContentAction.STRIP);
        assertThat(rules.actionFor(ContentRule.CR)).isEqualTo(ContentAction.ALLOW);
        assertThat(rules.checked()).containsExactly(ContentRule.NUL, ContentRule.C1_CONTROL);
    }

    @Test
    void ignoresCaseAndSpacesAroundNames() {
        assertThat(ContentRules.parse(" nul : Reject ,  c1_control:STRIP "))
                .isEqualTo(ContentRules.parse("NUL:reject,C1_CONTROL:strip"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "NUL:allow", "NUL:allow, CR:ALLOW"})
    void blankTextAndExplicitAllowAreNone(String text) {
        assertThat(ContentRules.parse(text)).isEqualTo(ContentRules.none());
        assertThat(ContentRules.parse(text).isEmpty()).isTrue();
        assertThat(ContentRules.parse(text).toString()).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "NUL:drop | unknown action 'drop' in 'NUL:drop' (actions: allow, reject, strip, replace)",
                "NULL:reject | unknown rule 'NULL' in 'NULL:reject' (rules: NUL, C0_CONTROL,",
                "NUL | 'NUL' is not RULE:action",
                "NUL:reject,,CR:strip | empty entry",
                "NUL:reject,NUL:strip | NUL is given more than once",
                "NOT_NORMALISED:strip | NOT_NORMALISED does not take strip",
            })
    void rejectsBadTextNamingTheBadToken(String text, String message) {
        assertThatThrownBy(() -> ContentRules.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("content rules '" + text + "': ")
                .hasMessageContaining(message);
    }

    @Test
    void reportsEveryBadEntryAtOnce() {
        assertThatThrownBy(() -> ContentRules.parse("FOO:reject,NUL:bar,CR:strip"))
                .hasMessageContaining("unknown rule 'FOO'")
                .hasMessageContaining("unknown action 'bar'")
                .satisfies(e -> assertThat(e.getMessage().split("; ")).hasSize(2));
    }

    @Test
    void notNormalisedTakesRejectAndReplaceButNotStrip() {
        assertThat(ContentRule.NOT_NORMALISED.accepts(ContentAction.REJECT)).isTrue();
        assertThat(ContentRule.NOT_NORMALISED.accepts(ContentAction.REPLACE)).isTrue();
        assertThat(ContentRule.NOT_NORMALISED.accepts(ContentAction.STRIP)).isFalse();
        assertThatThrownBy(() -> ContentRules.of(Map.of(ContentRule.NOT_NORMALISED, ContentAction.STRIP)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NOT_NORMALISED does not take strip");
        assertThatThrownBy(() -> ContentRules.none().with(ContentRule.NOT_NORMALISED, ContentAction.STRIP))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toStringIsTheTextFormInDeclarationOrder() {
        ContentRules rules = ContentRules.none()
                .with(ContentRule.CR, ContentAction.REPLACE)
                .with(ContentRule.NUL, ContentAction.REJECT);
        assertThat(rules).hasToString("NUL:reject,CR:replace");
    }

    @Test
    void withAllowRemovesTheRule() {
        ContentRules rules = ContentRules.parse("NUL:reject,CR:strip").with(ContentRule.CR, ContentAction.ALLOW);
        assertThat(rules).isEqualTo(ContentRules.parse("NUL:reject"));
    }

    @Test
    void isImmutable() {
        EnumMap<ContentRule, ContentAction> map = new EnumMap<>(ContentRule.class);
        map.put(ContentRule.NUL, ContentAction.REJECT);
        ContentRules rules = ContentRules.of(map);
        map.put(ContentRule.CR, ContentAction.STRIP);
        assertThat(rules.checked()).containsExactly(ContentRule.NUL);
        assertThatThrownBy(() -> rules.asMap().put(ContentRule.CR, ContentAction.STRIP))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Provide
    Arbitrary<ContentRules> anyRules() {
        return Arbitraries.maps(Arbitraries.of(ContentRule.class), Arbitraries.of(ContentAction.class))
                .filter(m -> m.entrySet().stream().allMatch(e -> e.getKey().accepts(e.getValue())))
                .map(ContentRules::of);
    }

    @Property(tries = 500)
    void toStringRoundTripsThroughParse(@ForAll("anyRules") ContentRules rules) {
        assertThat(ContentRules.parse(rules.toString())).isEqualTo(rules);
        assertThat(ContentRules.parse(rules.toString().toLowerCase(Locale.ROOT)))
                .isEqualTo(rules);
    }

    @Test
    void everyRuleHasADescription() {
        for (ContentRule rule : ContentRule.values()) {
            assertThat(rule.description()).isNotBlank();
        }
        assertThat(ContentRule.C1_CONTROL.description()).isEqualTo("U+0080..U+009F");
    }
}
