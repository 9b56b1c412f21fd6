package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example row of the "Content rules" section is what the code does. The section lives in
 * docs/content-rules.md until it joins docs/rules.md; the test reads whichever holds the table.
 */
class ContentRulesDocumentationTest {
    private static final String START = "<!-- content examples:";
    private static final String END = "<!-- /content examples -->";

    static String table() throws IOException {
        Path docs = Path.of(System.getProperty("repo.dir"), "docs");
        for (String name : List.of("rules.md", "content-rules.md")) {
            Path file = docs.resolve(name);
            if (Files.exists(file)) {
                String doc = Files.readString(file);
                if (doc.contains(START)) {
                    return doc.substring(doc.indexOf(START), doc.indexOf(END));
                }
            }
        }
        throw new IllegalStateException("no content examples in docs/rules.md or docs/content-rules.md");
    }

    static Stream<String[]> examples() throws IOException {
        List<String[]> rows = new ArrayList<>();
        for (String line : table().lines().toList()) {
            if (line.startsWith("| `") || line.startsWith("| |")) {
                String[] cells = line.split("\\|", -1);
                rows.add(new String[] {
                    unquote(cells[1]), unquote(cells[2]), unquote(cells[3]), unquote(cells[5]), unquote(cells[6])
                });
            }
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "{0} {1} on {2}")
    @MethodSource("examples")
    void exampleRowIsWhatTheCodeDoes(String rules, String normalisation, String input, String findings, String output) {
        ContentPolicy policy = ContentPolicy.of(
                ContentRules.parse(rules), Normalisation.valueOf(normalisation.toUpperCase(Locale.ROOT)));
        ContentResult result = policy.apply(HexFormat.of().parseHex(input.replace(" ", "")));
        String actual = result.findings().stream()
                .map(f -> f.offset() + "," + f.length() + "," + f.rule() + ":"
                        + f.action().name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(" "));
        assertThat(actual).isEqualTo(findings);
        assertThat(HexFormat.ofDelimiter(" ").withUpperCase().formatHex(result.output()))
                .isEqualTo(output);
    }

    @Test
    void everyRuleAndEveryActionItTakesHasAnExample() throws IOException {
        Set<String> shown = examples()
                .flatMap(row -> Stream.of(row[3].split(" ")))
                .filter(f -> !f.isEmpty())
                .map(f -> f.substring(f.lastIndexOf(',') + 1))
                .collect(Collectors.toSet());
        for (ContentRule rule : ContentRule.values()) {
            for (ContentAction action : EnumSet.complementOf(EnumSet.of(ContentAction.ALLOW))) {
                if (rule.accepts(action)) {
                    assertThat(shown).contains(rule + ":" + action.name().toLowerCase(Locale.ROOT));
                }
            }
        }
    }

    private static String unquote(String cell) {
        return cell.trim().replace("`", "");
    }
}
