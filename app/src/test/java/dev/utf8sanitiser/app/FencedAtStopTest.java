package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link FencedAtStop} names Kafka's internal loggers and matches a line of Kafka's text, neither of
 * which is API: on a Kafka upgrade that renames them this test fails, rather than the stop's log
 * silently going back to Kafka's ERRORs.
 */
class FencedAtStopTest {
    @Test
    void everyLoggerItFiltersIsAClassOfTheKafkaOnTheClassPath() throws ClassNotFoundException {
        for (String logger : FencedAtStop.LOGGERS) {
            assertThat(Class.forName(logger, false, getClass().getClassLoader()))
                    .as(logger)
                    .isNotNull();
        }
    }

    @Test
    void theTaskManagerStillLogsTheLineItMatches() throws IOException {
        String resource = FencedAtStop.TASK_MANAGER.replace('.', '/') + ".class";
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            byte[] code = in.readAllBytes();
            byte[] text = FencedAtStop.LEFT_UNCOMMITTED.getBytes(StandardCharsets.UTF_8);
            assertThat(indexOf(code, text))
                    .as("\"%s\" in %s", FencedAtStop.LEFT_UNCOMMITTED, resource)
                    .isNotNegative();
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}
