package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConsoleSettingsTest {
    @TempDir
    Path dir;

    private static Map<String, Object> props(String... keysAndValues) {
        Map<String, Object> props = new HashMap<>();
        props.put(SanitiserConfig.INPUT_TOPICS_CONFIG, "orders");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    private static List<String> problems(Map<String, Object> props) {
        return SanitiserConfig.validate(props, Requirement.all()).stream()
                .map(ConfigProblem::message)
                .toList();
    }

    @Test
    void offLoopbackReadOnlyAndNoPayloadByDefault() {
        ConsoleSettings console = new SanitiserConfig(props()).console();

        assertThat(console.enabled()).isFalse();
        assertThat(console.address()).isEqualTo("127.0.0.1");
        assertThat(console.writeToken()).isEmpty();
        assertThat(console.showPayload()).isFalse();
        assertThat(console.contextBytes()).isEqualTo(8);
    }

    @Test
    void theTokenComesFromTheKeyAndIsNeverPrinted() {
        ConsoleSettings console = new SanitiserConfig(props(ConsoleKeys.CONSOLE_TOKEN_CONFIG, "s3cret")).console();

        assertThat(console.writeToken()).map(Password::value).contains("s3cret");
        assertThat(console.toString()).doesNotContain("s3cret");
    }

    @Test
    void theTokenComesFromTheFirstLineOfAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("token"), "  from-a-secret  \nsecond line\n");

        ConsoleSettings console =
                new SanitiserConfig(props(ConsoleKeys.CONSOLE_TOKEN_FILE_CONFIG, file.toString())).console();

        assertThat(console.writeToken()).map(Password::value).contains("from-a-secret");
    }

    @Test
    void aTokenFileWithAnEmptyFirstLineIsAnErrorNotAnEmptyToken() throws Exception {
        Path file = Files.writeString(dir.resolve("token"), "\n");
        ConsoleSettings console =
                new SanitiserConfig(props(ConsoleKeys.CONSOLE_TOKEN_FILE_CONFIG, file.toString())).console();

        assertThatThrownBy(console::writeToken)
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("first line is empty");
    }

    @Test
    void aMissingTokenFileAndBothWaysAtOnceAreConfigurationProblems() throws Exception {
        assertThat(problems(props(
                        ConsoleKeys.CONSOLE_TOKEN_FILE_CONFIG,
                        dir.resolve("nope").toString())))
                .singleElement(STRING)
                .contains("no such file");

        Path file = Files.writeString(dir.resolve("token"), "t\n");
        assertThat(problems(props(
                        ConsoleKeys.CONSOLE_TOKEN_CONFIG, "t", ConsoleKeys.CONSOLE_TOKEN_FILE_CONFIG, file.toString())))
                .containsExactly("Set sanitiser.console.token or sanitiser.console.token.file, not both");
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "0.0.0.0", "::1", "::", "10.1.2.3", "fe80::1"})
    void theAddressIsALiteralIpAddress(String address) {
        assertThat(problems(props(ConsoleKeys.CONSOLE_ADDRESS_CONFIG, address))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "example.com", "256.1.1.1", "1.2.3", "", "127.0.0.1:8080"})
    void aHostNameOrANonsenseAddressIsRefused(String address) {
        assertThat(problems(props(ConsoleKeys.CONSOLE_ADDRESS_CONFIG, address)))
                .singleElement(STRING)
                .contains("expected an IP address");
    }

    @Test
    void theConsoleAnswersToLoopbackNamesAndItsOwnAddressByDefault() {
        assertThat(new SanitiserConfig(props()).console().allowedHosts())
                .containsExactlyInAnyOrder("localhost", "127.0.0.1", "[::1]");
        assertThat(new SanitiserConfig(props(ConsoleKeys.CONSOLE_ADDRESS_CONFIG, "10.0.0.7"))
                        .console()
                        .allowedHosts())
                .containsExactlyInAnyOrder("localhost", "127.0.0.1", "[::1]", "10.0.0.7");
        assertThat(new SanitiserConfig(props(ConsoleKeys.CONSOLE_ADDRESS_CONFIG, "fd00::7"))
                        .console()
                        .allowedHosts())
                .contains("[fd00::7]");
        assertThat(new SanitiserConfig(props(ConsoleKeys.CONSOLE_ADDRESS_CONFIG, "0.0.0.0"))
                        .console()
                        .allowedHosts())
                .as("a wildcard is no host name")
                .containsExactlyInAnyOrder("localhost", "127.0.0.1", "[::1]");
    }

    @Test
    void allowedHostsAreListedInLowerCaseAndReplaceTheDefaults() {
        ConsoleSettings console = new SanitiserConfig(
                        props(ConsoleKeys.CONSOLE_ALLOWED_HOSTS_CONFIG, "Console.Example.COM,[FD00::1]"))
                .console();

        assertThat(console.allowedHosts()).containsExactlyInAnyOrder("console.example.com", "[fd00::1]", "127.0.0.1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"evil.example:80", "http://x", "::1", "a b", "[not-v6]", "*"})
    void anAllowedHostThatIsNoHostNameIsAProblem(String host) {
        assertThat(problems(props(ConsoleKeys.CONSOLE_ALLOWED_HOSTS_CONFIG, host)))
                .anySatisfy(p -> assertThat(p).contains(ConsoleKeys.CONSOLE_ALLOWED_HOSTS_CONFIG));
    }
}
