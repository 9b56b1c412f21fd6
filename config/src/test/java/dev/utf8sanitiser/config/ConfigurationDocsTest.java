package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigurationDocsTest {

    /** Set by the module's surefire configuration; the fallback serves an IDE run from the module. */
    private static final Path DOCS = Path.of(System.getProperty("configuration.docs", "../docs/configuration.md"));

    @Test
    void theCommittedDocsAreUpToDate() throws IOException {
        String generated = ConfigurationDocs.markdown();
        if (Boolean.getBoolean("docs.regenerate")) {
            Files.createDirectories(DOCS.getParent());
            Files.writeString(DOCS, generated, StandardCharsets.UTF_8);
        }

        assertThat(DOCS)
                .as(
                        "docs/configuration.md is missing or stale; regenerate it with `%s` and commit it",
                        ConfigurationDocs.REGENERATE_COMMAND)
                .exists();
        assertThat(Files.readString(DOCS, StandardCharsets.UTF_8))
                .as(
                        "docs/configuration.md is stale; regenerate it with `%s` and commit it",
                        ConfigurationDocs.REGENERATE_COMMAND)
                .isEqualTo(generated);
    }

    @Test
    void documentsEveryKeyOnceAndTheEnvironmentRules() {
        String markdown = ConfigurationDocs.markdown();

        for (String key : SanitiserConfig.definedKeys()) {
            assertThat(markdown).as(key).containsOnlyOnce("| `" + key + "` |");
        }
        assertThat(markdown)
                .contains("## Topics", "## Checks", "## Content", "## Schema Registry", "## Operations")
                .contains("## Connect")
                .contains("## Environment variables", "`KAFKA_BOOTSTRAP_SERVERS` sets `bootstrap.servers`")
                .contains(ConfigurationDocs.REGENERATE_COMMAND);
    }

    @Test
    void showsDefaultsAndValidValuesAsAnOperatorWritesThem() {
        String markdown = ConfigurationDocs.markdown();

        assertThat(markdown)
                .contains("| `sanitiser.output.topic` | string | `${topic}.clean` | a topic name; ${topic} stands for"
                        + " the input topic | high |")
                .contains("| `sanitiser.policy` | string | `strict` | strict, replace, repair | high |")
                .contains("| `sanitiser.check.key` | boolean | `false` | true, false | medium |")
                .contains("| `sanitiser.check.headers` | list | empty |")
                .contains("| `schema.registry.url` | string | none |");
    }
}
