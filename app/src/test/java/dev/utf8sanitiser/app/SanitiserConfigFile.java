package dev.utf8sanitiser.app;

import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The properties file of a sanitiser that reads one input topic of a test broker, as {@code run}
 * and the {@code dlq} commands take it: its own {@code application.id}, the broker, the topic,
 * replication factor 1, and the test's own lines after them.
 */
public final class SanitiserConfigFile {
    private SanitiserConfigFile() {}

    /** Writes {@code <inputTopic>.properties} in {@code dir}. */
    public static Path write(Path dir, EmbeddedKafka kafka, String inputTopic, String... lines) throws IOException {
        List<String> all = new ArrayList<>(List.of(
                "application.id=" + inputTopic + "-app",
                "bootstrap.servers=" + kafka.bootstrapServers(),
                "sanitiser.input.topics=" + inputTopic,
                "replication.factor=1"));
        all.addAll(List.of(lines));
        all.add("");
        return Files.writeString(dir.resolve(inputTopic + ".properties"), String.join("\n", all));
    }
}
