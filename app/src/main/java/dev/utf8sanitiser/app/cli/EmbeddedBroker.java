package dev.utf8sanitiser.app.cli;

/**
 * Whether this build carries the embedded broker and test registry (testkit): the application jar
 * does, for {@code run} without {@code bootstrap.servers} and for {@code demo}; the production
 * image's jar does not (docs/deploy.md). Asked by name, so that the answer never needs the classes.
 */
final class EmbeddedBroker {
    static final String MISSING = "this build has no embedded Kafka (the production image carries only what runs"
            + " against a real cluster): set bootstrap.servers, or use the application jar";

    private EmbeddedBroker() {}

    static boolean available() {
        try {
            Class.forName("dev.utf8sanitiser.testkit.EmbeddedKafka", false, EmbeddedBroker.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
