package dev.utf8sanitiser.testkit;

/**
 * A JVM that starts a broker and never closes it, for {@link EmbeddedKafkaIT}. Prints {@code
 * broker <pid> <directory>}, then either returns from {@code main} (argument {@code exit}: the JVM
 * ends normally and only the shutdown hook can stop the broker) or waits to be killed.
 */
final class AbandoningParent {
    static final String MARKER = "broker ";

    private AbandoningParent() {}

    public static void main(String[] args) throws InterruptedException {
        EmbeddedKafka kafka = EmbeddedKafka.start();
        System.out.println(MARKER + kafka.pid() + " " + kafka.directory());
        System.out.flush();
        if (args.length > 0 && args[0].equals("exit")) {
            return;
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
