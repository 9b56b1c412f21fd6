package dev.utf8sanitiser.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConnectDocsTest {

    /** Set by the module's surefire configuration; the fallback serves an IDE run from the module. */
    private static final Path DOCS = Path.of(System.getProperty("connect.docs", "../docs/connect.md"));

    @Test
    void theCommittedReferenceIsUpToDate() throws IOException {
        String committed = Files.readString(DOCS, StandardCharsets.UTF_8);
        String generated = ConnectDocs.withReference(committed);
        if (Boolean.getBoolean("docs.regenerate")) {
            Files.writeString(DOCS, generated, StandardCharsets.UTF_8);
            committed = generated;
        }

        assertThat(committed)
                .as(
                        "the reference part of docs/connect.md is stale; regenerate it with `%s` and commit it",
                        ConnectDocs.REGENERATE_COMMAND)
                .isEqualTo(generated);
    }

    @Test
    void theReferenceListsEveryKeyOfEachPluginAndWhyTheOthersAreRefused() {
        String reference = ConnectDocs.reference();

        for (String key : Utf8Sanitise.CONFIG_DEF.names()) {
            assertThat(reference).contains("| `" + key + "` |");
        }
        assertThat(reference)
                .contains("### `dev.utf8sanitiser.connect.Utf8Sanitise$Value` and")
                .contains("### `dev.utf8sanitiser.connect.IsWellFormedUtf8`")
                .contains("Keys, each after `transforms.<alias>.`:")
                .contains("- `sanitiser.output.topic`: a record keeps its topic")
                .contains("- `sanitiser.policy`: the predicate only answers")
                .doesNotContain("<code>");
        assertThat(SanitiserConfig.definedKeys())
                .allSatisfy(key -> assertThat(reference).contains("`" + key + "`"));
    }

    @Test
    void replacesOnlyTheTextBetweenTheMarkers() {
        String document =
                "# Title\n\nHand-written.\n\n<!-- BEGIN GENERATED: old -->\nold\n<!-- END GENERATED -->\n\nAfter.\n";

        assertThat(ConnectDocs.withReference(document))
                .startsWith("# Title\n\nHand-written.\n\n" + ConnectDocs.BEGIN)
                .endsWith(ConnectDocs.END + "\n\nAfter.\n");
    }
}
