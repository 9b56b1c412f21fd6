package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.Normalisation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SanitiserConfigLoaderTest {

    @TempDir
    Path dir;

    private Path file(String... lines) throws IOException {
        Path file = dir.resolve("sanitiser.properties");
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void readsTheFile() throws IOException {
        SanitiserConfig config = SanitiserConfigLoader.withEnvironment(Map.of())
                .load(file("sanitiser.input.topics=orders", "sanitiser.policy=replace", "bootstrap.servers=b:9092"));

        assertThat(config.inputTopics()).containsExactly("orders");
        assertThat(config.policy()).isEqualTo(Policy.REPLACE);
        assertThat(config.passThroughProperties()).containsEntry("bootstrap.servers", "b:9092");
    }

    @Test
    void theEnvironmentOverridesTheFileWhichOverridesTheDefaults() throws IOException {
        Path file = file(
                "sanitiser.input.topics=orders",
                "sanitiser.policy=replace",
                "sanitiser.payload.format=json",
                "bootstrap.servers=file:9092");
        Map<String, String> environment = Map.of(
                "SANITISER_POLICY", "repair",
                "KAFKA_BOOTSTRAP_SERVERS", "env:9092",
                "KAFKA_APPLICATION_ID", "from-env");

        SanitiserConfig config =
                SanitiserConfigLoader.withEnvironment(environment).load(file);

        assertThat(config.policy()).as("environment over file").isEqualTo(Policy.REPAIR);
        assertThat(config.payloadFormat()).as("file over default").isEqualTo(PayloadFormat.JSON);
        assertThat(config.normalisation()).as("default").isEqualTo(Normalisation.NONE);
        assertThat(config.passThroughProperties())
                .containsEntry("bootstrap.servers", "env:9092")
                .containsEntry("application.id", "from-env");
    }

    @Test
    void anEmptyVariableBlanksOutAnOptionalValueFromTheFile() throws IOException {
        Path file = file("sanitiser.input.topics=orders", "sanitiser.input.pattern=orders.*");

        SanitiserConfig config = SanitiserConfigLoader.withEnvironment(Map.of("SANITISER_INPUT_PATTERN", ""))
                .load(file);

        assertThat(config.inputPattern()).isEmpty();
        assertThat(config.inputTopics()).containsExactly("orders");
    }

    @Test
    void theEnvironmentAloneIsEnough() {
        SanitiserConfig config = SanitiserConfigLoader.withEnvironment(Map.of("SANITISER_INPUT_TOPICS", "a,b"))
                .load(Map.of());

        assertThat(config.inputTopics()).containsExactly("a", "b");
    }

    @Test
    void aBadValueFromTheEnvironmentNamesTheVariable() throws IOException {
        Path file = file("sanitiser.input.topics=orders", "sanitiser.policy=replace");

        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> SanitiserConfigLoader.withEnvironment(
                                Map.of("SANITISER_POLICY", "lenient"))
                        .load(file));

        assertThat(e.messages())
                .containsExactly("Invalid value lenient for configuration sanitiser.policy: expected one of strict,"
                        + " replace, repair (from environment variable SANITISER_POLICY)");
    }

    /** A variable set to nothing would leave Kafka without a group or a broker, and say so only later. */
    @Test
    void anEmptyApplicationIdOrBootstrapServersIsRefusedWithTheVariable() throws IOException {
        Path file = file("sanitiser.input.topics=orders", "application.id=sanitiser");

        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> SanitiserConfigLoader.withEnvironment(
                                Map.of("KAFKA_APPLICATION_ID", "", "KAFKA_BOOTSTRAP_SERVERS", " "))
                        .load(file));

        assertThat(e.messages())
                .containsExactly(
                        "Invalid value '' for configuration application.id: it must not be empty"
                                + " (from environment variable KAFKA_APPLICATION_ID)",
                        "Invalid value ' ' for configuration bootstrap.servers: it must not be empty"
                                + " (from environment variable KAFKA_BOOTSTRAP_SERVERS)");
    }

    @Test
    void problemsInFileAndEnvironmentAreReportedTogether() throws IOException {
        Path file = file("sanitiser.input.topics=orders", "sanitiser.payload.format=xml", "sanitiser.polcy=replace");

        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> SanitiserConfigLoader.withEnvironment(
                                Map.of("SANITISER_HTTP_PORT", "99999", "SANITISER_NORMALIZATION", "NFC"))
                        .load(file));

        assertThat(e.messages())
                .containsExactly(
                        "Invalid value xml for configuration sanitiser.payload.format: expected one of text, json, avro, protobuf",
                        "Invalid value 99999 for configuration sanitiser.http.port: Value must be no more than 65535"
                                + " (from environment variable SANITISER_HTTP_PORT)",
                        "Unknown configuration sanitiser.polcy; did you mean sanitiser.policy?",
                        "Unknown environment variable SANITISER_NORMALIZATION: it sets no sanitiser key; did you mean"
                                + " SANITISER_NORMALISATION?");
    }

    @Test
    void requirementsCanBeRelaxedForEmbeddedServices() throws IOException {
        Path file = file("sanitiser.input.topics=orders", "sanitiser.payload.format=avro");
        SanitiserConfigLoader loader = SanitiserConfigLoader.withEnvironment(Map.of());

        assertThat(catchThrowableOfType(SanitiserConfigException.class, () -> loader.load(file))
                        .messages())
                .containsExactly("Missing schema.registry.url: it is required when sanitiser.payload.format is avro");
        assertThat(loader.requiring(Requirement.embedded()).load(file).schemaRegistryUrl())
                .isEmpty();
    }

    @Test
    void readsTheFileAsUtf8() throws IOException {
        Path file = file("sanitiser.input.topics=orders", "client.id=sanitiser-\u00e9\u4e2d");

        assertThat(SanitiserConfigLoader.withEnvironment(Map.of()).load(file).passThroughProperties())
                .containsEntry("client.id", "sanitiser-\u00e9\u4e2d");
    }

    @Test
    void aMissingFileIsOneMessageNamingIt() {
        Path missing = dir.resolve("nope.properties");

        SanitiserConfigException e = catchThrowableOfType(
                SanitiserConfigException.class,
                () -> SanitiserConfigLoader.withEnvironment(Map.of()).load(missing));

        assertThat(e.messages()).containsExactly("Cannot read configuration file " + missing + ": no such file");
    }

    @Test
    void aFileThatIsNotUtf8IsOneMessageNamingIt() throws IOException {
        Path file = dir.resolve("latin1.properties");
        Files.write(file, new byte[] {'a', '=', (byte) 0xE9, '\n'});

        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> SanitiserConfigLoader.readProperties(file));

        assertThat(e.messages()).containsExactly("Cannot read configuration file " + file + ": not well-formed UTF-8");
    }

    @Test
    void aMalformedEscapeIsOneMessageNamingTheFile() throws IOException {
        Path file = file("a=\\uZZZZ");

        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> SanitiserConfigLoader.readProperties(file));

        assertThat(e.messages()).singleElement().asString().startsWith("Cannot read configuration file " + file + ": ");
    }
}
