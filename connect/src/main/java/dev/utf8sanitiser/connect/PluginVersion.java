package dev.utf8sanitiser.connect;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version the plugins report to the worker ({@code GET /connector-plugins}, the worker log):
 * the Maven project version, written into {@code plugin.properties} by the build, as Kafka's own
 * plugins report theirs from {@code kafka-version.properties}.
 */
final class PluginVersion {
    private static final String RESOURCE = "plugin.properties";

    /** Read once: the jar does not change under a running worker. */
    static final String VERSION = read();

    private PluginVersion() {}

    private static String read() {
        try (InputStream in = PluginVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the plugin jar");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
