package dev.utf8sanitiser.app.cli;

import sun.misc.Signal;

/**
 * SIGTERM and SIGINT as a request to stop, so the main thread can commit, close and exit 0. A
 * shutdown hook cannot: the JVM then exits 143 whatever the hook does. {@code sun.misc.Signal}
 * (module jdk.unsupported) is the JDK's only way to handle a signal; where it is missing, the
 * default behaviour stays and the shutdown hooks of Kafka's clients still close them.
 */
final class Signals {
    private Signals() {}

    static void onTerminate(Runnable action) {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> action.run());
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // Not on this platform: the JVM's default handling applies.
            }
        }
    }
}
