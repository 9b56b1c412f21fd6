package dev.utf8sanitiser.processor.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
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
}
