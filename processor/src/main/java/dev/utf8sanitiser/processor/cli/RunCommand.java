package dev.utf8sanitiser.processor.cli;

import dev.utf8sanitiser.config.ConfigProblem;
import dev.utf8sanitiser.config.PayloadFormat;
import dev.utf8sanitiser.config.Requirement;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.processor.app.SanitiserApplication;
import dev.utf8sanitiser.serdes.registry.RegistryMisconfiguredException;
import dev.utf8sanitiser.serdes.registry.RegistryUnavailableException;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
            "Stops on SIGTERM or Ctrl-C after committing (exit 0); exit 1 on a fatal error, or when the"
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
        CountDownLatch stopRequested = new CountDownLatch(1);
        Signals.onTerminate(stopRequested::countDown);
        EmbeddedKafka kafka = null;
        TestSchemaRegistry registry = null;
        try {
            if (embedded) {
                kafka = EmbeddedKafka.start();
                printLine("embedded kafka: bootstrap.servers=" + kafka.bootstrapServers());
                settings = settings.withOverrides(Map.of("bootstrap.servers", kafka.bootstrapServers()));
                if (settings.payloadFormat() == PayloadFormat.AVRO
                        && settings.schemaRegistryUrl().isEmpty()) {
                    registry = TestSchemaRegistry.start();
                    printLine("embedded registry: schema.registry.url=" + registry.url());
                    settings = settings.withOverrides(Map.of("schema.registry.url", registry.url()));
                }
            }
            SanitiserApplication started;
            try {
                started = SanitiserApplication.start(settings, embedded);
            } catch (RegistryMisconfiguredException e) {
                // A wrong URL, credentials or TLS settings: the configuration must change.
                io.err().println("utf8-sanitiser: run: " + e.getMessage());
                return ExitCode.USAGE_OR_UNREADABLE;
            } catch (RegistryUnavailableException e) {
                // Down for now: what a fatal error would do once running, so a supervisor restarts it.
                io.err().println("utf8-sanitiser: run: " + e.getMessage());
                return ExitCode.ILL_FORMED;
            }
            try (SanitiserApplication app = started) {
                while (!stopRequested.await(200, TimeUnit.MILLISECONDS) && !app.isStopped()) {
                    // Wait for a signal, or for the application to stop by itself.
                }
                boolean closedInTime = app.stop();
                return !closedInTime || app.failed() ? ExitCode.ILL_FORMED : ExitCode.OK;
            }
        } finally {
            if (registry != null) {
                registry.close();
            }
            if (kafka != null) {
                kafka.close();
            }
        }
    }

    private void printLine(String line) throws java.io.IOException {
        io.out().write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        io.out().flush();
    }
}
