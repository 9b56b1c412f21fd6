package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.streams.SanitiseProcessor;
import java.io.IOException;
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

    private static Level deadLetterLevel() throws IOException {
        LoggerContext context = new LoggerContext("log-configuration-test");
        try {
            XmlConfiguration configuration = new XmlConfiguration(
                    context,
                    ConfigurationSource.fromResource("log4j2.xml", LogConfigurationTest.class.getClassLoader()));
            configuration.initialize();
            return configuration
                    .getLoggerConfig(SanitiseProcessor.class.getName())
                    .getLevel();
        } finally {
            context.stop();
        }
    }
}
