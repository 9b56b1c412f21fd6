package dev.utf8sanitiser.app.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.content.ContentRule;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RuleDocsTest {

    @Test
    void eachKindOfRuleLeadsToThePageThatExplainsIt() throws Exception {
        assertThat(RuleDocs.of("SURROGATE")).isEqualTo("docs/rules.md#the-seven-rules");
        assertThat(RuleDocs.of("NUL")).isEqualTo("docs/content-rules.md#content-rules");
        assertThat(RuleDocs.of("RECORD_TOO_LARGE")).isEqualTo("docs/dlq.md#records-too-large");
        assertThat(RuleDocs.of("MALFORMED_AVRO")).isEqualTo("docs/payload-formats.md");
        assertThat(RuleDocs.of("UNUSABLE_SCHEMA")).isEqualTo("docs/payload-formats.md");
        assertThat(RuleDocs.of("NESTED_TOO_DEEP")).isEqualTo("docs/connect.md#deep-and-cyclic-values");
        assertThat(RuleDocs.of("CYCLIC_VALUE")).isEqualTo("docs/connect.md#deep-and-cyclic-values");

        // and the pages name the rules
        Path repo = Path.of(System.getProperty("repo.dir", ".."));
        for (String rule : new String[] {
            "SURROGATE",
            "NUL",
            "RECORD_TOO_LARGE",
            "MALFORMED_AVRO",
            "UNUSABLE_SCHEMA",
            "NESTED_TOO_DEEP",
            "CYCLIC_VALUE"
        }) {
            String[] link = RuleDocs.of(rule).split("#", 2);
            String text = Files.readString(repo.resolve(link[0]));
            assertThat(text).as(link[0]).contains(rule);
            if (link.length == 2) {
                // the anchor is a heading of the page, as GitHub spells its id
                assertThat(text.lines().filter(line -> line.startsWith("#")).map(line -> line.replaceFirst(
                                        "^#+\\s*", "")
                                .toLowerCase(Locale.ROOT)
                                .replaceAll("[^a-z0-9 -]", "")
                                .replace(' ', '-')))
                        .as(RuleDocs.of(rule))
                        .contains(link[1]);
            }
        }
    }

    /**
     * Every rule, and names no version knows, lead where they always led and are explained as they
     * always were: the page by matching the name against core's rules and the other families' names,
     * the description core's only.
     */
    @Test
    void everyNameLeadsWhereItAlwaysLed() {
        for (DeadLetterRule rule : DeadLetterRule.values()) {
            assertThat(RuleDocs.of(rule.spelling())).as(rule.spelling()).isEqualTo(pageByName(rule.spelling()));
            assertThat(RuleDocs.description(rule.spelling()))
                    .as(rule.spelling())
                    .isEqualTo(descriptionByName(rule.spelling()));
        }
        for (String unknown : new String[] {"MALFORMED_THRIFT", "surrogate", "", "<b>RULE</b>"}) {
            assertThat(RuleDocs.of(unknown)).isEqualTo("docs/payload-formats.md");
            assertThat(RuleDocs.description(unknown)).isEmpty();
        }
        assertThat(RuleDocs.description("C1_CONTROL")).contains("U+0080..U+009F");
        assertThat(RuleDocs.description("MALFORMED_AVRO")).isEmpty();
    }

    private static String pageByName(String rule) {
        if (Arrays.stream(Rule.values()).anyMatch(r -> r.name().equals(rule))) {
            return "docs/rules.md#the-seven-rules";
        }
        if (Arrays.stream(ContentRule.values()).anyMatch(r -> r.name().equals(rule))) {
            return "docs/content-rules.md#content-rules";
        }
        if (Set.of("RECORD_TOO_LARGE", "REPLACEMENT_TOO_LARGE").contains(rule)) {
            return "docs/dlq.md#records-too-large";
        }
        if (Set.of("NESTED_TOO_DEEP", "CYCLIC_VALUE").contains(rule)) {
            return "docs/connect.md#deep-and-cyclic-values";
        }
        return "docs/payload-formats.md";
    }

    private static Optional<String> descriptionByName(String rule) {
        return Arrays.stream(Rule.values())
                .filter(r -> r.name().equals(rule))
                .map(Rule::description)
                .findFirst()
                .or(() -> Arrays.stream(ContentRule.values())
                        .filter(r -> r.name().equals(rule))
                        .map(ContentRule::description)
                        .findFirst());
    }
}
