package dev.utf8sanitiser.processor.console;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Where the console is served: beside {@code run}'s probes and metrics, or on its own ({@code dlq serve}). */
public final class ConsoleServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;

    private ConsoleServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Adds {@code /console} to a server that also serves other paths; the console answers only
     * requests that arrive at {@code sanitiser.console.address}.
     */
    public static void attach(HttpServer server, Console console) {
        server.createContext(Layout.ROOT, new ConsoleHandler(console, address(console)));
    }

    /** A server of the console alone, bound to {@code sanitiser.console.address} and {@code port} (0: any free). */
    public static ConsoleServer serve(Console console, int port) throws IOException {
        InetAddress address = address(console);
        HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 0);
        ExecutorService executor = executor();
        server.setExecutor(executor);
        attach(server, console);
        server.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Location", Layout.ROOT + "/");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.start();
        return new ConsoleServer(server, executor);
    }

    /**
     * Threads for an HTTP server whose pages may wait on Kafka (a record read, a replay): a page
     * must not hold up the probes, nor another page.
     */
    public static ExecutorService executor() {
        return Executors.newFixedThreadPool(4, task -> {
            Thread thread = new Thread(task, "utf8-sanitiser-http");
            thread.setDaemon(true);
            return thread;
        });
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    private static InetAddress address(Console console) {
        try {
            return InetAddress.getByName(console.settings().address()); // a literal, checked by the config
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
