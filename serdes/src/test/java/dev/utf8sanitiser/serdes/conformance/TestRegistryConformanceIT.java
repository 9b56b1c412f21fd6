package dev.utf8sanitiser.serdes.conformance;

import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Confluent's client against the project's test registry, the one {@code run} and {@code demo}
 * start and users point their own clients at: it must answer what real clients ask.
 */
class TestRegistryConformanceIT extends ConfluentClientConformance {
    private static TestSchemaRegistry registry;

    @BeforeAll
    static void start() {
        registry = TestSchemaRegistry.start();
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    @Override
    String url() {
        return registry.url();
    }

    @Override
    String subject(String name) {
        return name;
    }
}
