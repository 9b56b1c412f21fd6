package dev.utf8sanitiser.app.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One in-process run of the command line: its exit code, stdout bytes and stderr text. Public for
 * the tests of other packages that check what a command shows of their records.
 */
public record CliRun(int exit, byte[] stdout, String stderr) {

    public static CliRun of(byte[] stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Io io = new Io(new ByteArrayInputStream(stdin), out, new PrintStream(err, true, StandardCharsets.UTF_8), false);
        int exit = Main.execute(io, args);
        return new CliRun(exit, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    public static CliRun of(String... args) {
        return of(new byte[0], args);
    }

    public String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }
}
