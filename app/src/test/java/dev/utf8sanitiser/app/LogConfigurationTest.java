package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.streams.SanitiseProcessor;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.clients.NetworkClient;
import org.apache.kafka.clients.producer.internals.Sender;
import org.apache.kafka.clients.producer.internals.TransactionManager;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.xml.XmlConfiguration;
import org.junit.jupiter.api.Test;

/**
 * The application's log4j2.xml, loaded into a context of its own: the per-dead-letter DEBUG line is
 * off by default and on with one setting, no configuration file of the operator's own.
 */
class LogConfigurationTest {
    private static final String PROPERTY = "utf8sanitiser.dead.letter.log.level";

    @Test
    void deadLetterLinesAreOffByDefaultAndOnWithOneSetting() throws IOException {
        assertThat(deadLetterLevel()).isEqualTo(Level.INFO);
        System.setProperty(PROPERTY, "debug");
        try {
            assertThat(deadLetterLevel()).isEqualTo(Level.DEBUG);
        } finally {
            System.clearProperty(PROPERTY);
        }
    }

    /**
     * The loggers that log a WARN per retry while a broker is away, a leader moves, too few
     * replicas are in sync or a transaction coordinator is busy, named by Kafka's own classes (a
     * rename in Kafka fails this test); the rest of Kafka stays at WARN.
     */
    @Test
    void kafkasPerRetryWarningsAreSilencedAndTheRestOfKafkaIsNot() throws IOException {
        for (Class<?> retrying : List.of(NetworkClient.class, Sender.class, TransactionManager.class)) {
            assertThat(level(retrying.getName())).as(retrying.getName()).isEqualTo(Level.ERROR);
        }
        assertThat(level("org.apache.kafka.streams.processor.internals.StreamThread"))
                .isEqualTo(Level.WARN);
        assertThat(level("org.apache.kafka.clients.producer.KafkaProducer")).isEqualTo(Level.WARN);
    }

    private static Level deadLetterLevel() throws IOException {
        return level(SanitiseProcessor.class.getName());
    }

    private static Level level(String logger) throws IOException {
        LoggerContext context = new LoggerContext("log-configuration-test");
        try {
            XmlConfiguration configuration = new XmlConfiguration(
                    context,
                    ConfigurationSource.fromResource("log4j2.xml", LogConfigurationTest.class.getClassLoader()));
            configuration.initialize();
            return configuration.getLoggerConfig(logger).getLevel();
        } finally {
            context.stop();
        }
    }
}
