package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContentRulesTest {

    @Test
    void parsesRuleActionPairsIntoATypedMap() {
        ContentRules rules = ContentRules.parse(List.of("NUL:reject", "C1_CONTROL:strip", "BYTE_ORDER_MARK:replace"));

        assertThat(rules.actionFor(ContentRule.NUL)).isEqualTo(ContentAction.REJECT);
        assertThat(rules.actionFor(ContentRule.C1_CONTROL)).isEqualTo(ContentAction.STRIP);
        assertThat(rules.actionFor(ContentRule.BYTE_ORDER_MARK)).isEqualTo(ContentAction.REPLACE);
        assertThat(rules.checked())
                .containsExactly(ContentRule.NUL, ContentRule.C1_CONTROL, ContentRule.BYTE_ORDER_MARK);
    }

    @Test
    void aRuleNotListedIsAllowedThatIsNotChecked() {
        ContentRules rules = ContentRules.parse(List.of("NUL:reject"));

        assertThat(rules.actionFor(ContentRule.CR)).isEqualTo(ContentAction.ALLOW);
        assertThat(rules.checked()).containsExactly(ContentRule.NUL);
        assertThat(ContentRules.none().checked()).isEmpty();
        assertThat(ContentRules.none().isEmpty()).isTrue();
    }

    @Test
    void anExplicitAllowIsKeptButNotChecked() {
        ContentRules rules = ContentRules.parse(List.of("CR:allow"));

        assertThat(rules.asMap()).containsExactly(Map.entry(ContentRule.CR, ContentAction.ALLOW));
        assertThat(rules.isEmpty()).isTrue();
    }

    @Test
    void ignoresCaseAndSpacesAroundNames() {
        assertThat(ContentRules.parse(List.of(" nul : Reject ", "line_separator:STRIP")))
                .isEqualTo(ContentRules.of(Map.of(
                        ContentRule.NUL, ContentAction.REJECT, ContentRule.LINE_SEPARATOR, ContentAction.STRIP)));
    }

    @Test
    void printsTheConfigurationFormInRuleOrder() {
        assertThat(ContentRules.parse(List.of("C1_CONTROL:strip", "NUL:reject")))
                .hasToString("NUL:reject,C1_CONTROL:strip");
        assertThat(ContentRules.none()).hasToString("");
    }

    @Test
    void everyRuleOfTheCatalogueIsKnown() {
        assertThat(ContentRule.values())
                .extracting(Enum::name)
                .containsExactly(
                        "NUL",
                        "C0_CONTROL",
                        "C1_CONTROL",
                        "NONCHARACTER",
                        "BYTE_ORDER_MARK",
                        "PRIVATE_USE",
                        "LINE_SEPARATOR",
                        "CR",
                        "NOT_NORMALISED");
        assertThat(ContentAction.values())
                .extracting(ContentAction::configName)
                .containsExactly("allow", "reject", "strip", "replace");
    }

    @Test
    void rejectsAnUnknownRuleNamingTheKnownOnes() {
        assertThatThrownBy(() -> ContentRules.parse(List.of("NULL:reject")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown rule 'NULL' (rules: NUL, C0_CONTROL,");
    }

    @Test
    void rejectsAnUnknownActionNamingTheKnownOnes() {
        assertThatThrownBy(() -> ContentRules.parse(List.of("NUL:drop")))
                .hasMessage("unknown action 'drop' (actions: allow, reject, strip, replace)");
    }

    @Test
    void rejectsAnEntryWithoutColon() {
        assertThatThrownBy(() -> ContentRules.parse(List.of("NUL"))).hasMessage("'NUL' is not RULE:action");
        assertThatThrownBy(() -> ContentRules.parse(List.of("NUL:reject", ""))).hasMessage("empty entry");
    }

    @Test
    void rejectsARuleGivenTwice() {
        assertThatThrownBy(() -> ContentRules.parse(List.of("NUL:reject", "nul:allow")))
                .hasMessage("NUL is given more than once");
    }

    @Test
    void notNormalisedOnlyDetects() {
        assertThat(ContentRules.parse(List.of("NOT_NORMALISED:reject")).actionFor(ContentRule.NOT_NORMALISED))
                .isEqualTo(ContentAction.REJECT);
        assertThatThrownBy(() -> ContentRules.parse(List.of("NOT_NORMALISED:strip")))
                .hasMessage("NOT_NORMALISED does not take strip (it takes allow, reject)");
        assertThatThrownBy(() -> ContentRules.of(Map.of(ContentRule.NOT_NORMALISED, ContentAction.REPLACE)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reportsEveryBadEntryAtOnce() {
        assertThatThrownBy(() -> ContentRules.parse(List.of("NULL:reject", "CR:drop", "NUL:reject", "CR")))
                .hasMessage("unknown rule 'NULL' (rules: " + ContentRules.ruleNames() + "); "
                        + "unknown action 'drop' (actions: allow, reject, strip, replace); "
                        + "'CR' is not RULE:action");
    }
}
