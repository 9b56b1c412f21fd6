package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.console.Console;
import dev.utf8sanitiser.app.console.ConsoleServer;
import dev.utf8sanitiser.config.SanitiserConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dlq serve}: the DLQ console on its own, for a machine that does not run the sanitiser. */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = {
            "Serve the DLQ console (docs/operations.md) until stopped: the dead-letter topics' counts, rates and"
                    + " newest records, each record's bytes, and replay from the page. It binds to"
                    + " sanitiser.console.address (loopback unless configured otherwise); a replay needs"
                    + " sanitiser.console.token.",
            "Exit 0 when stopped; 2 for a bad configuration or a port in use."
        })
final class DlqServeCommand implements Callable<Integer> {
    @Option(
            names = "--config",
            required = true,
            paramLabel = "FILE",
            description = "The properties file of `run`: bootstrap.servers, security settings, the input and"
                    + " dead-letter topics, and the sanitiser.console.* keys; environment overrides apply.")
    Path config;

    @Option(
            names = "--topic",
            paramLabel = "T",
            description = "A dead-letter topic to show (repeatable); by default the dead-letter topic of each"
                    + " input topic the configuration lists or its pattern matches.")
    List<String> topics;

    @Option(
            names = "--port",
            paramLabel = "N",
            defaultValue = "8090",
            description = "The port to serve on (default ${DEFAULT-VALUE}; 0 for any free port).")
    int port;

    private final Io io;

    DlqServeCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        Optional<SanitiserConfig> loaded = CommandConfig.loadWithCluster(io, "dlq serve", config);
        if (loaded.isEmpty()) {
            return ExitCode.USAGE_OR_UNREADABLE;
        }
        SanitiserConfig settings = loaded.get();
        StopRequest stop = new StopRequest();
        Signals.onTerminate(stop::request);
        Console console;
        try {
            console = Console.open(
                    settings,
                    SanitiserApplication.adminProperties(settings.streamsProperties()),
                    topics == null ? List.of() : topics,
                    Clock.systemUTC());
        } catch (UncheckedIOException e) {
            io.err().println("utf8-sanitiser: dlq serve: " + e.getMessage());
            return ExitCode.USAGE_OR_UNREADABLE;
        }
        try (console) {
            ConsoleServer server;
            try {
                server = ConsoleServer.serve(console, port);
            } catch (IOException e) {
                io.err()
                        .println("utf8-sanitiser: dlq serve: cannot serve on "
                                + settings.console().address() + ":" + port + ": " + e.getMessage());
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            try (server) {
                InetSocketAddress address = server.address();
                String host = address.getAddress().getHostAddress();
                PrintStream out = new PrintStream(io.out(), true, StandardCharsets.UTF_8);
                out.println("DLQ console: http://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
                        + address.getPort() + "/console/"
                        + (console.writable() ? "" : " (read only: no" + " sanitiser.console.token)"));
                out.flush();
                while (!stop.await(500)) {
                    // serve until SIGTERM or SIGINT
                }
            }
        }
        return ExitCode.OK;
    }
}
