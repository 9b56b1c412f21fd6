package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.SanitisingOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code replace}: writes the input to stdout as well-formed UTF-8, in constant memory (docs/cli.md). */
@Command(
        name = "replace",
        mixinStandardHelpOptions = true,
        description = {
            "Write the input to standard output as well-formed UTF-8: well-formed input byte-identical,"
                    + " each maximal ill-formed subpart replaced by U+FFFD (EF BF BD), as Unicode §3.9"
                    + " and the WHATWG Encoding Standard recommend.",
            "With --policy repair, CESU-8 / Modified UTF-8 surrogate pairs and C0 80 are repaired first.",
            "Exit 0 whether or not anything was replaced; 2 when the input cannot be read."
        })
final class ReplaceCommand implements Callable<Integer> {
    /** The policies that write output; strict only judges, which is what {@code check} does. */
    enum PolicyName {
        replace(Policy.REPLACE),
        repair(Policy.REPAIR);

        final Policy policy;

        PolicyName(Policy policy) {
            this.policy = policy;
        }
    }

    @Option(
            names = "--policy",
            defaultValue = "replace",
            description = "replace: U+FFFD per maximal ill-formed subpart; repair: first turn CESU-8 /"
                    + " Modified UTF-8 surrogate pairs into 4-byte UTF-8 and C0 80 into 00, then replace"
                    + " the rest (default: ${DEFAULT-VALUE}).")
    PolicyName policy;

    @Option(names = "--stats", description = "Print the number of replacements to stderr.")
    boolean stats;

    @Parameters(
            paramLabel = "FILE",
            arity = "0..1",
            defaultValue = Input.STDIN,
            description = "The input; - or none for standard input.")
    String file;

    private final Io io;

    ReplaceCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException {
        Input input = new Input(file);
        // finish() rather than close(): stdout stays open for whoever else writes to it.
        SanitisingOutputStream out = new SanitisingOutputStream(io.out(), policy.policy);
        try {
            InputStream in = input.open(io);
            try {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = input.read(in, buffer)) != -1; ) {
                    out.write(buffer, 0, n);
                }
            } finally {
                if (!input.isStdin()) {
                    in.close();
                }
            }
            out.finish();
        } catch (UnreadableInputException e) {
            io.out().flush();
            io.err().println("utf8-sanitiser: " + e.getMessage());
            return ExitCode.USAGE_OR_UNREADABLE;
        }
        if (stats) {
            io.err()
                    .println(input.name() + ": " + out.replacements() + " replacements, " + out.repairs()
                            + " repairs in " + out.bytesIn() + " bytes");
        }
        return ExitCode.OK;
    }
}
