package dev.utf8sanitiser.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code demo} (docs/cli.md): the work is {@link Demo}'s. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Start an embedded Kafka and the sanitiser, send sample traffic built from the Unicode documents'"
                + " examples, and show where every record went.")
final class DemoCommand implements Callable<Integer> {
    private final Io io;

    DemoCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        if (!EmbeddedBroker.available()) {
            io.err().println("utf8-sanitiser: demo: " + EmbeddedBroker.MISSING);
            return ExitCode.USAGE_OR_UNREADABLE;
        }
        return new Demo(io).run();
    }
}
