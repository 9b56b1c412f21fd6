package dev.utf8sanitiser.processor.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RuleDocsTest {

    @Test
    void eachKindOfRuleLeadsToThePageThatExplainsIt() throws Exception {
        assertThat(RuleDocs.of("SURROGATE")).isEqualTo("docs/rules.md");
        assertThat(RuleDocs.of("NUL")).isEqualTo("docs/content-rules.md");
        assertThat(RuleDocs.of("RECORD_TOO_LARGE")).isEqualTo("docs/dlq.md#records-too-large");
        assertThat(RuleDocs.of("MALFORMED_AVRO")).isEqualTo("docs/payload-formats.md");

        // and the pages name the rules
        Path repo = Path.of(System.getProperty("repo.dir", ".."));
        for (String rule : new String[] {"SURROGATE", "NUL", "RECORD_TOO_LARGE", "MALFORMED_AVRO"}) {
            String page = RuleDocs.of(rule).replaceFirst("#.*", "");
            assertThat(Files.readString(repo.resolve(page))).as(page).contains(rule);
        }
    }
}
