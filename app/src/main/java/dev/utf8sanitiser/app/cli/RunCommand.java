package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.app.ClusterUnreachableException;
import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.config.ConfigProblem;
import dev.utf8sanitiser.config.Requirement;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.registry.RegistryMisconfiguredException;
import dev.utf8sanitiser.registry.RegistryUnavailableException;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code run --config FILE}: the Kafka Streams sanitiser (docs/cli.md). */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run the streaming sanitiser. Without bootstrap.servers it starts an embedded single-node"
                    + " Kafka first and prints its address; with sanitiser.payload.format=avro and no"
                    + " schema.registry.url, a test schema registry beside it too.",
            "Stops on SIGTERM or Ctrl-C after committing (exit 0), at any stage; exit 1 on a fatal error,"
                    + " when the Kafka cluster or the schema registry cannot be reached at start-up, or when the"
                    + " stop could not commit within sanitiser.shutdown.timeout.ms; exit 2 for a bad"
                    + " configuration, including a schema registry URL, credentials or TLS settings that the"
                    + " registry does not accept at start-up."
        })
final class RunCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE", description = "A properties file.")
    Path config;

    private final Io io;

    RunCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        // First, so that a stop asked for while the configuration loads still exits 0.
        StopRequest stop = new StopRequest();
        Signals.onTerminate(stop::request);
        Optional<SanitiserConfig> loaded = CommandConfig.load(io, "run", config);
        if (loaded.isEmpty()) {
            return ExitCode.USAGE_OR_UNREADABLE;
        }
        SanitiserConfig settings = loaded.get();
        boolean embedded = !settings.streamsProperties().containsKey("bootstrap.servers");
        if (!embedded) {
            List<ConfigProblem> problems = SanitiserConfig.validate(settings.originals(), Requirement.all());
            if (!problems.isEmpty()) {
                problems.forEach(p -> io.err().println("utf8-sanitiser: run: " + p.message()));
                return ExitCode.USAGE_OR_UNREADABLE;
            }
        }
        if (embedded && !EmbeddedBroker.available()) {
            io.err().println("utf8-sanitiser: run: " + EmbeddedBroker.MISSING);
            return ExitCode.USAGE_OR_UNREADABLE;
        }
        Resources resources = new Resources();
        try {
            SanitiserApplication started;
            try {
                started = stop.interruptibly(() -> start(settings, embedded, resources));
            } catch (Exception e) {
                if (stop.isRequested()) {
                    // Whatever start-up was waiting for, the stop ended the wait: nothing had started.
                    return ExitCode.OK;
                }
                return startFailure(e);
            }
            try (SanitiserApplication app = started) {
                while (!stop.await(200) && !app.isStopped()) {
                    // Wait for a signal, or for the application to stop by itself.
                }
                boolean closedInTime = app.stop();
                return !closedInTime || app.failed() ? ExitCode.ILL_FORMED : ExitCode.OK;
            }
        } finally {
            resources.close();
        }
    }

    /** Starts the embedded broker and registry if asked for, then the sanitiser. */
    private SanitiserApplication start(SanitiserConfig settings, boolean embedded, Resources resources)
            throws Exception {
        if (embedded) {
            resources.kafka = EmbeddedKafka.start();
            printLine("embedded kafka: bootstrap.servers=" + resources.kafka.bootstrapServers());
            resources.applicationId =
                    String.valueOf(settings.streamsProperties().get("application.id"));
            EmbeddedAddress.write(resources.applicationId, resources.kafka.bootstrapServers());
            settings = settings.withOverrides(Map.of("bootstrap.servers", resources.kafka.bootstrapServers()));
            if (settings.payloadFormat().needsSchemaRegistry()
                    && settings.schemaRegistryUrl().isEmpty()) {
                resources.registry = TestSchemaRegistry.start();
                printLine("embedded registry: schema.registry.url=" + resources.registry.url());
                settings = settings.withOverrides(Map.of("schema.registry.url", resources.registry.url()));
            }
        }
        return SanitiserApplication.start(settings, embedded);
    }

    /** The exit code and the one line for what stopped start-up; anything else is Main's to report. */
    private int startFailure(Exception e) throws Exception {
        if (e instanceof RegistryMisconfiguredException) {
            // A wrong URL, credentials or TLS settings: the configuration must change.
            io.err().println("utf8-sanitiser: run: " + e.getMessage());
            return ExitCode.USAGE_OR_UNREADABLE;
        }
        if (e instanceof RegistryUnavailableException || e instanceof ClusterUnreachableException) {
            // Down for now: what a fatal error would do once running, so a supervisor restarts it.
            io.err().println("utf8-sanitiser: run: " + e.getMessage());
            return ExitCode.ILL_FORMED;
        }
        throw e;
    }

    /** What {@code run} started beside the sanitiser, closed last. */
    private static final class Resources {
        EmbeddedKafka kafka;
        TestSchemaRegistry registry;
        String applicationId;

        void close() {
            if (applicationId != null) {
                EmbeddedAddress.delete(applicationId);
            }
            if (registry != null) {
                registry.close();
            }
            if (kafka != null) {
                kafka.close();
            }
        }
    }

    private void printLine(String line) throws IOException {
        io.out().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        io.out().flush();
    }
}
