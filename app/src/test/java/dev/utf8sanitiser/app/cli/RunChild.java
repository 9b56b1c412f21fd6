package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code run --config FILE} in a child JVM, as an operator starts it, with its standard output and
 * error in one log file: for what only a real process shows (signals, exit codes, its log).
 */
final class RunChild implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final long startNanos;

    private RunChild(Process process, Path log, long startNanos) {
        this.process = process;
        this.log = log;
        this.startNanos = startNanos;
    }

    static RunChild start(Path config, Path log) throws IOException {
        long startNanos = System.nanoTime();
        Process process = new ProcessBuilder(
                        ChildCli.command(List.of("-Xmx384m"), "run", "--config", config.toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new RunChild(process, log, startNanos);
    }

    /** When it was started, in {@link System#nanoTime()}. */
    long startNanos() {
        return startNanos;
    }

    /** SIGTERM, what an operator or a supervisor sends to stop it. */
    void terminate() {
        process.destroy();
    }

    /** SIGKILL: a crash, no commit, no leaving the group. Returns once it has gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Waits for it to exit; true when it did within {@code timeout}. */
    boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    int exitValue() {
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Everything it has written so far. */
    String log() {
        try {
            return Files.readString(log, UTF_8);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + log, e);
        }
    }

    /** Waits until its log contains {@code text}; true when it does within {@code timeout}. */
    boolean awaitLog(String text, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!log().contains(text)) {
            if (System.nanoTime() > deadline || !process.isAlive() && !log().contains(text)) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /** Kills it (SIGKILL) if it still runs. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                process.destroyForcibly().waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
