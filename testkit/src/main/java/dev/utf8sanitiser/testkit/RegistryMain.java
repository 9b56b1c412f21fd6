package dev.utf8sanitiser.testkit;

import java.util.concurrent.CountDownLatch;

/**
 * {@link TestSchemaRegistry} as a process, for the deploy tests' stand-in registry container
 * (deploy/test): {@code java -cp app.jar dev.utf8sanitiser.testkit.RegistryMain PORT} serves the
 * Confluent API on 127.0.0.1:PORT until the process is stopped.
 */
public final class RegistryMain {
    private RegistryMain() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: RegistryMain PORT");
            System.exit(2);
        }
        TestSchemaRegistry registry =
                TestSchemaRegistry.builder().port(Integer.parseInt(args[0])).start();
        Runtime.getRuntime().addShutdownHook(new Thread(registry::close));
        System.out.println("test schema registry: " + registry.url());
        new CountDownLatch(1).await();
    }
}
