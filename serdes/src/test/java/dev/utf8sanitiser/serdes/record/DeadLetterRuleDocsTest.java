package dev.utf8sanitiser.serdes.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.serdes.record.DeadLetterRule.Family;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each table and list of rules in the documentation names exactly the rules of its family in
 * {@link DeadLetterRule}, so a rule added to the type, or to a page, shows up here until both agree.
 */
class DeadLetterRuleDocsTest {
    /** A rule as the pages write it: a backticked upper-case name. */
    private static final Pattern NAME = Pattern.compile("`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)`");

    @Test
    void rulesMdTablesTheSevenUtf8Rules() throws IOException {
        assertThat(firstColumn(section("docs/rules.md", "## The seven rules"))).isEqualTo(spellings(Family.UTF8));
    }

    @Test
    void contentRulesMdTablesTheContentRules() throws IOException {
        String rules = section("docs/content-rules.md", "## Content rules");
        assertThat(firstColumn(rules.substring(0, rules.indexOf("### ")))).isEqualTo(spellings(Family.CONTENT));
    }

    @Test
    void payloadFormatsMdTablesTheAvroRulesAndNamesTheJsonRules() throws IOException {
        assertThat(firstColumn(section("docs/payload-formats.md", "## Avro"))).isEqualTo(spellings(Family.AVRO));

        String formats = Files.readString(doc("docs/payload-formats.md"), StandardCharsets.UTF_8);
        assertThat(named(row(formats, "| `avro` |"))).isEqualTo(spellings(Family.AVRO));
        // the JSON row lists the record-level rules only, so a part of the family
        assertThat(spellings(Family.JSON)).containsAll(named(row(formats, "| `json` |")));
        assertThat(named(section("docs/payload-formats.md", "## JSON"))).containsAll(spellings(Family.JSON));
    }

    @Test
    void payloadFormatsMdTablesTheProtobufRules() throws IOException {
        assertThat(firstColumn(section("docs/payload-formats.md", "## Protobuf")))
                .isEqualTo(spellings(Family.PROTOBUF));
        String formats = Files.readString(doc("docs/payload-formats.md"), StandardCharsets.UTF_8);
        assertThat(named(row(formats, "| `protobuf` |"))).containsAll(spellings(Family.PROTOBUF));
    }

    @Test
    void dlqMdNamesEveryRuleOfTheFamiliesOutsideCoreAndLinksCoresPages() throws IOException {
        String dlq = Files.readString(doc("docs/dlq.md"), StandardCharsets.UTF_8);
        String ruleRow = row(dlq, "| `__utf8.rule` |");

        assertThat(named(ruleRow))
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(DeadLetterRule.values())
                        .filter(r -> !r.family().text())
                        .map(DeadLetterRule::spelling)
                        .toList());
        for (Family family : Family.values()) {
            if (family.text()) {
                assertThat(ruleRow)
                        .contains("(" + family.docs().replaceFirst("^docs/", "").split("#")[0]);
            }
        }
        assertThat(named(section("docs/dlq.md", "## Records too large")))
                .containsExactlyInAnyOrderElementsOf(spellings(Family.SIZE));
    }

    @Test
    void connectMdExplainsTheValueShapeRules() throws IOException {
        assertThat(named(section("docs/connect.md", "### Deep and cyclic values")))
                .containsExactlyInAnyOrderElementsOf(spellings(Family.CONNECT_VALUE));
    }

    @Test
    void operationsMdTagsDeadLettersByTheSizeRulesAndLinksTheOtherFamilies() throws IOException {
        String row =
                row(Files.readString(doc("docs/operations.md"), StandardCharsets.UTF_8), "| `dead-lettered-total`");

        assertThat(named(row)).containsExactlyInAnyOrderElementsOf(spellings(Family.SIZE));
        // the Streams application dead-letters under every family but the Connect value's
        for (Family family : Family.values()) {
            if (family != Family.CONNECT_VALUE) {
                assertThat(row).as(family.name()).contains(family.docs().replaceFirst("^docs/", ""));
            }
        }
    }

    private static List<String> spellings(Family family) {
        return family.rules().stream().map(DeadLetterRule::spelling).toList();
    }

    private static Path doc(String path) {
        return Path.of(System.getProperty("repo.dir", "..")).resolve(path);
    }

    /** From {@code heading} to the next heading of its level or above. */
    private static String section(String path, String heading) throws IOException {
        List<String> lines = Files.readAllLines(doc(path), StandardCharsets.UTF_8);
        int start = lines.indexOf(heading);
        assertThat(start).as(path + ": " + heading).isNotNegative();
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        int end = start + 1;
        while (end < lines.size() && !isHeadingAtOrAbove(lines.get(end), level.length() - 1)) {
            end++;
        }
        return String.join("\n", lines.subList(start, end));
    }

    private static boolean isHeadingAtOrAbove(String line, int level) {
        int hashes = 0;
        while (hashes < line.length() && line.charAt(hashes) == '#') {
            hashes++;
        }
        return hashes > 0 && hashes <= level && line.length() > hashes && line.charAt(hashes) == ' ';
    }

    /** The backticked names of the first column of each table row that starts with one. */
    private static List<String> firstColumn(String text) {
        return text.lines()
                .filter(line -> line.startsWith("| `"))
                .map(line -> line.split("\\|")[1].trim())
                .map(cell -> cell.substring(1, cell.length() - 1))
                .toList();
    }

    /** The one line that starts with {@code start}. */
    private static String row(String text, String start) {
        List<String> rows = text.lines().filter(line -> line.startsWith(start)).toList();
        assertThat(rows).as(start).hasSize(1);
        return rows.get(0);
    }

    /** Each backticked upper-case name, once, in order. */
    private static List<String> named(String text) {
        Matcher m = NAME.matcher(text);
        Stream.Builder<String> names = Stream.builder();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names.build().distinct().toList();
    }
}
