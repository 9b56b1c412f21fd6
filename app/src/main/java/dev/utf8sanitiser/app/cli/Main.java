package dev.utf8sanitiser.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code utf8-sanitiser}: the one executable, with the subcommands of docs/cli.md. */
@Command(
        name = "utf8-sanitiser",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Find, replace and route ill-formed UTF-8.",
        subcommandsRepeatable = false)
public final class Main implements Runnable {
    private final CommandLine commandLine;

    Main(Io io) {
        // Help and version go to stdout as users expect; diagnostics to stderr.
        // Subcommands take the streams from the factory, so tests can drive them in-process.
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                try {
                    return type.getDeclaredConstructor(Io.class).newInstance(io);
                } catch (NoSuchMethodException e) {
                    return CommandLine.defaultFactory().create(type);
                }
            }
        };
        this.commandLine = new CommandLine(this, factory)
                .addSubcommand(new CheckCommand(io))
                .addSubcommand(new ReplaceCommand(io))
                .addSubcommand(new RunCommand(io))
                .addSubcommand(new DemoCommand(io))
                .addSubcommand("corrected", new CommandLine(CorrectedCommand.class, factory))
                .addSubcommand("transactions", new CommandLine(TransactionsCommand.class, factory))
                .addSubcommand("dlq", new CommandLine(DlqCommand.class, factory))
                .setOut(new PrintWriter(new OutputStreamWriter(io.out(), StandardCharsets.UTF_8), true))
                .setErr(new PrintWriter(io.err(), true));
        commandLine.setExecutionExceptionHandler((e, cmd, parseResult) -> {
            if (OutputClosedException.isCause(e)) {
                // The reader has gone (replace | head): stop quietly. A command with a result of
                // its own by then (check) returns it itself; the others have nothing more to say.
                return ExitCode.OK;
            }
            try {
                io.out().flush();
            } catch (OutputClosedException closed) {
                // Nobody reads stdout any more; the error below still goes to stderr.
            }
            io.err().println("utf8-sanitiser: " + cmd.getCommandName() + ": " + oneLine(e));
            return ExitCode.USAGE_OR_UNREADABLE;
        });
    }

    /**
     * Runs a command line against the given streams and returns the exit code. A closed standard
     * output (EPIPE) ends the command quietly, with the exit code it had by then.
     */
    static int execute(Io io, String... args) {
        Io guarded = new Io(io.in(), new ClosedPipeDetector(io.out()), io.err(), io.stderrIsTerminal());
        int exit = new Main(guarded).commandLine.execute(args);
        try {
            guarded.out().flush();
        } catch (OutputClosedException e) {
            // What is still buffered has no reader.
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return exit;
    }

    public static void main(String[] args) {
        System.exit(execute(Io.system(), args));
    }

    @Override
    public void run() {
        // No subcommand: show what there is.
        commandLine.usage(commandLine.getOut());
    }

    /**
     * {@code e} on one line: a wrapper that adds nothing to its cause is its cause; a file failure
     * names the file and the reason in words; an {@link UncheckedIOException} says what was being
     * done, then why.
     */
    static String oneLine(Throwable e) {
        Throwable cause = e.getCause();
        String own = e.getMessage();
        if (cause != null && (own == null || own.equals(cause.toString()))) {
            return oneLine(cause);
        }
        if (e instanceof IOException io) {
            return FileFailure.describe(io).replace('\n', ' ');
        }
        String message = own == null ? e.getClass().getSimpleName() : own.replace('\n', ' ');
        return e instanceof UncheckedIOException && cause != null ? message + ": " + oneLine(cause) : message;
    }

    /** The version from the build, filtered into version.properties. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties properties = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("/dev/utf8sanitiser/app/version.properties")) {
                if (in != null) {
                    properties.load(in);
                }
            }
            return new String[] {"utf8-sanitiser " + properties.getProperty("version", "unknown")};
        }
    }
}
