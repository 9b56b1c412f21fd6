package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every example row of docs/rules.md is what the code does. */
class RulesDocumentationTest {

    static Stream<String[]> examples() throws IOException {
        String doc = Files.readString(Path.of(System.getProperty("repo.dir"), "docs", "rules.md"));
        String table = doc.substring(doc.indexOf("<!-- examples:"), doc.indexOf("<!-- /examples -->"));
        List<String[]> rows = new ArrayList<>();
        for (String line : table.lines().toList()) {
            if (line.startsWith("| `")) {
                String[] cells = line.split("\\|");
                rows.add(new String[] {unquote(cells[1]), unquote(cells[3]), unquote(cells[4])});
            }
        }
        assertThat(rows).hasSizeGreaterThanOrEqualTo(Rule.values().length);
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void exampleRowIsWhatTheCodeDoes(String input, String errors, String replaced) {
        byte[] bytes = Hex.bytes(input);
        List<String> expected = List.of(errors.split(" "));
        assertThat(Utf8Validator.errors(bytes))
                .extracting(e -> e.offset() + "," + e.length() + "," + e.rule())
                .isEqualTo(expected);
        assertThat(Hex.hex(Utf8Replacement.replace(bytes))).isEqualTo(Hex.hex(render(replaced)));
    }

    static Stream<String[]> policies() throws IOException {
        String doc = Files.readString(Path.of(System.getProperty("repo.dir"), "docs", "rules.md"));
        String table = doc.substring(doc.indexOf("<!-- policies:"), doc.indexOf("<!-- /policies -->"));
        return table.lines()
                .filter(line -> line.startsWith("| `"))
                .map(line -> line.split("\\|"))
                .map(cells -> new String[] {unquote(cells[1]), unquote(cells[2]), unquote(cells[3])});
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("policies")
    void policyRowIsWhatTheCodeDoes(String input, String policy, String output) {
        Sanitised result = Utf8Sanitiser.sanitise(Hex.bytes(input), Policy.valueOf(policy.toUpperCase()));
        assertThat(Hex.hex(result.output())).isEqualTo(output);
    }

    /** The last column: FFFD, a hex byte, or a single character written as itself. */
    private static byte[] render(String replaced) {
        StringBuilder s = new StringBuilder();
        for (String token : replaced.split(" ")) {
            if (token.equals("FFFD")) {
                s.append('\uFFFD');
            } else if (token.length() == 2 && token.matches("[0-9A-F]{2}")) {
                s.append((char) Integer.parseInt(token, 16));
            } else {
                s.append(token);
            }
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String unquote(String cell) {
        return cell.trim().replace("`", "");
    }
}
