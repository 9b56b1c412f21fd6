package dev.utf8sanitiser.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** Runs a command of the host ({@code ip}, {@code mount}) for the testkit, and insists it succeeds. */
final class HostCommand {
    private static final long TIMEOUT_SECONDS = 20;

    private HostCommand() {}

    /** Whether this JVM runs on Linux, where the commands the testkit runs exist. */
    static boolean onLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    }

    /** Runs {@code command}; throws with its output unless it exits 0 within 20 s. */
    static void run(String... command) {
        List<String> words = List.of(command);
        try {
            Process process =
                    new ProcessBuilder(words).redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new EmbeddedKafkaException(
                        String.join(" ", words) + ": no exit within " + TIMEOUT_SECONDS + " s");
            }
            String output = new String(process.getInputStream().readAllBytes(), UTF_8).strip();
            if (process.exitValue() != 0) {
                throw new EmbeddedKafkaException(
                        String.join(" ", words) + ": exit " + process.exitValue() + ": " + output);
            }
        } catch (IOException e) {
            throw new EmbeddedKafkaException("could not run " + String.join(" ", words), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedKafkaException("interrupted: " + String.join(" ", words), e);
        }
    }
}
