package dev.utf8sanitiser.core.corrected;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Rule;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CorrectedRuleTest {

    @ParameterizedTest
    @EnumSource(Rule.class)
    void keepsEveryUtf8RuleUnderItsOwnNameAndDescription(Rule rule) {
        CorrectedRule same = CorrectedRule.of(rule);

        assertThat(same.name()).isEqualTo(rule.name());
        assertThat(same.description()).isEqualTo(rule.description());
    }

    @ParameterizedTest
    @EnumSource(CorrectedRule.class)
    void describesEveryRuleOnOneLine(CorrectedRule rule) {
        assertThat(rule.description()).isNotBlank().doesNotContain("\n").doesNotEndWith(".");
    }
}
