package dev.utf8sanitiser.serdes.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.content.ContentRule;
import dev.utf8sanitiser.serdes.record.DeadLetterRule.Family;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class DeadLetterRuleTest {

    @Test
    void everyRuleIsSpeltAsDeadLetterRecordsAndMetricsHaveAlwaysSpeltIt() {
        // The contract, written out: __utf8.rule, __utf8.cause and the metrics' rule tag.
        assertThat(Arrays.stream(DeadLetterRule.values()).map(DeadLetterRule::spelling))
                .containsExactly(
                        "UNEXPECTED_CONTINUATION",
                        "NON_SHORTEST_FORM",
                        "SURROGATE",
                        "OUT_OF_RANGE",
                        "INVALID_BYTE",
                        "TRUNCATED",
                        "TRUNCATED_AT_END",
                        "NUL",
                        "C0_CONTROL",
                        "C1_CONTROL",
                        "NONCHARACTER",
                        "BYTE_ORDER_MARK",
                        "PRIVATE_USE",
                        "LINE_SEPARATOR",
                        "CR",
                        "NOT_NORMALISED",
                        "NOT_AVRO",
                        "UNKNOWN_SCHEMA",
                        "UNUSABLE_SCHEMA",
                        "MALFORMED_AVRO",
                        "NOT_PROTOBUF",
                        "MALFORMED_PROTOBUF",
                        "INVALID_JSON",
                        "LONE_SURROGATE_ESCAPE",
                        "REPLACEMENT_TOO_LARGE",
                        "RECORD_TOO_LARGE",
                        "NESTED_TOO_DEEP",
                        "CYCLIC_VALUE");
        for (DeadLetterRule rule : DeadLetterRule.values()) {
            assertThat(rule.toString()).isEqualTo(rule.spelling());
            assertThat(rule.description()).as(rule.spelling()).isNotBlank();
        }
    }

    @Test
    void theUtf8AndContentRulesAreCoresUnderTheirOwnNames() {
        for (Rule rule : Rule.values()) {
            DeadLetterRule dead = DeadLetterRule.of(rule);
            assertThat(dead.spelling()).isEqualTo(rule.name());
            assertThat(dead.family()).isEqualTo(Family.UTF8);
            assertThat(dead.description()).isEqualTo(rule.description());
        }
        for (ContentRule rule : ContentRule.values()) {
            DeadLetterRule dead = DeadLetterRule.of(rule);
            assertThat(dead.spelling()).isEqualTo(rule.name());
            assertThat(dead.family()).isEqualTo(Family.CONTENT);
            assertThat(dead.description()).isEqualTo(rule.description());
        }
        assertThat(Family.UTF8.rules()).hasSize(Rule.values().length);
        assertThat(Family.CONTENT.rules()).hasSize(ContentRule.values().length);
    }

    @Test
    void eachFamilyHasRulesAndOnlyTheTextFamiliesAreCores() {
        for (Family family : Family.values()) {
            assertThat(family.rules()).as(family.name()).isNotEmpty();
            assertThat(family.rules()).allSatisfy(r -> assertThat(r.docs()).isEqualTo(family.docs()));
        }
        assertThat(EnumSet.allOf(Family.class).stream().filter(Family::text))
                .containsExactly(Family.UTF8, Family.CONTENT);
    }

    @Test
    void aNameIsLookedUpByItsExactSpellingAndAnUnknownOneIsNoRule() {
        for (DeadLetterRule rule : DeadLetterRule.values()) {
            assertThat(DeadLetterRule.named(rule.spelling())).contains(rule);
        }
        // written by a newer version or by another tool, or not a rule at all
        for (String other :
                new String[] {"MALFORMED_THRIFT", "surrogate", " SURROGATE", "SURROGATE ", "", "Rule.SURROGATE", "null"
                }) {
            assertThat(DeadLetterRule.named(other)).as(other).isEmpty();
        }
    }

    @Test
    void eachFamilysSectionExistsAndNamesItsRules() throws IOException {
        Path repo = Path.of(System.getProperty("repo.dir", ".."));
        for (Family family : Family.values()) {
            String[] link = family.docs().split("#", 2);
            String text = Files.readString(repo.resolve(link[0]));
            for (DeadLetterRule rule : family.rules()) {
                assertThat(text).as(link[0]).contains("`" + rule.spelling() + "`");
            }
            if (link.length == 2) {
                // the anchor is a heading of the page, as GitHub spells its id
                assertThat(text.lines().filter(line -> line.startsWith("#")).map(line -> line.replaceFirst(
                                        "^#+\\s*", "")
                                .toLowerCase(Locale.ROOT)
                                .replaceAll("[^a-z0-9 -]", "")
                                .replace(' ', '-')))
                        .as(family.docs())
                        .contains(link[1]);
            }
        }
    }
}
