package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.core.content.ContentAction;
import dev.utf8sanitiser.core.content.ContentRule;
import dev.utf8sanitiser.core.content.ContentRules;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContentRulesTest {

    @Test
    void parsesRuleActionPairsIntoATypedMap() {
        ContentRules rules =
                ContentRulesSetting.parse(List.of("NUL:reject", "C1_CONTROL:strip", "BYTE_ORDER_MARK:replace"));

        assertThat(rules.actionFor(ContentRule.NUL)).isEqualTo(ContentAction.REJECT);
        assertThat(rules.actionFor(ContentRule.C1_CONTROL)).isEqualTo(ContentAction.STRIP);
        assertThat(rules.actionFor(ContentRule.BYTE_ORDER_MARK)).isEqualTo(ContentAction.REPLACE);
        assertThat(rules.checked())
                .containsExactly(ContentRule.NUL, ContentRule.C1_CONTROL, ContentRule.BYTE_ORDER_MARK);
    }

    @Test
    void aRuleNotListedIsAllowedThatIsNotChecked() {
        ContentRules rules = ContentRulesSetting.parse(List.of("NUL:reject"));

        assertThat(rules.actionFor(ContentRule.CR)).isEqualTo(ContentAction.ALLOW);
        assertThat(rules.checked()).containsExactly(ContentRule.NUL);
        assertThat(ContentRules.none().checked()).isEmpty();
        assertThat(ContentRules.none().isEmpty()).isTrue();
    }

    @Test
    void anExplicitAllowIsKeptButNotChecked() {
        ContentRules rules = ContentRulesSetting.parse(List.of("CR:allow"));

        // An explicit allow is the same as leaving the rule out (core's ContentRules).
        assertThat(rules).isEqualTo(ContentRules.none());
        assertThat(rules.isEmpty()).isTrue();
    }

    @Test
    void ignoresCaseAndSpacesAroundNames() {
        assertThat(ContentRulesSetting.parse(List.of(" nul : Reject ", "line_separator:STRIP")))
                .isEqualTo(ContentRules.of(Map.of(
                        ContentRule.NUL, ContentAction.REJECT, ContentRule.LINE_SEPARATOR, ContentAction.STRIP)));
    }

    @Test
    void printsTheConfigurationFormInRuleOrder() {
        assertThat(ContentRulesSetting.parse(List.of("C1_CONTROL:strip", "NUL:reject")))
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
                .extracting(ConfigNames::of)
                .containsExactly("allow", "reject", "strip", "replace");
    }

    @Test
    void rejectsAnUnknownRuleNamingTheKnownOnes() {
        assertThatThrownBy(() -> ContentRulesSetting.parse(List.of("NULL:reject")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown rule 'NULL' (rules: NUL, C0_CONTROL,");
    }

    @Test
    void rejectsAnUnknownActionNamingTheKnownOnes() {
        assertThatThrownBy(() -> ContentRulesSetting.parse(List.of("NUL:drop")))
                .hasMessage("unknown action 'drop' (actions: allow, reject, strip, replace)");
    }

    @Test
    void rejectsAnEntryWithoutColon() {
        assertThatThrownBy(() -> ContentRulesSetting.parse(List.of("NUL"))).hasMessage("'NUL' is not RULE:action");
        assertThatThrownBy(() -> ContentRulesSetting.parse(List.of("NUL:reject", "")))
                .hasMessage("empty entry");
    }

    @Test
    void rejectsARuleGivenTwice() {
        assertThatThrownBy(() -> ContentRulesSetting.parse(List.of("NUL:reject", "nul:allow")))
                .hasMessage("NUL is given more than once");
    }

    @Test
    void notNormalisedCannotBeStripped() {
        assertThat(ContentRulesSetting.parse(List.of("NOT_NORMALISED:reject")).actionFor(ContentRule.NOT_NORMALISED))
                .isEqualTo(ContentAction.REJECT);
        assertThatThrownBy(() -> ContentRulesSetting.parse(List.of("NOT_NORMALISED:strip")))
                .hasMessage("NOT_NORMALISED does not take strip (it takes allow, reject, replace)");
        // replace normalises the text (core's ContentAction); strip has no meaning for a form.
        assertThat(ContentRulesSetting.parse(List.of("NOT_NORMALISED:replace")).actionFor(ContentRule.NOT_NORMALISED))
                .isEqualTo(ContentAction.REPLACE);
        assertThatThrownBy(() -> ContentRules.of(Map.of(ContentRule.NOT_NORMALISED, ContentAction.STRIP)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reportsEveryBadEntryAtOnce() {
        assertThatThrownBy(() -> ContentRulesSetting.parse(List.of("NULL:reject", "CR:drop", "NUL:reject", "CR")))
                .hasMessage("unknown rule 'NULL' (rules: " + ContentRulesSetting.ruleNames() + "); "
                        + "unknown action 'drop' (actions: allow, reject, strip, replace); "
                        + "'CR' is not RULE:action");
    }
}
