package dev.utf8sanitiser.registry;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A plain HTTP server on a free loopback port that answers every request with what the test says:
 * a web page, an empty 404, an endless body. For the answers a real registry would not give.
 */
final class ScriptedServer implements AutoCloseable {
    /** What to do with one request. */
    @FunctionalInterface
    interface Script {
        void answer(HttpExchange exchange) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "scripted-server");
        thread.setDaemon(true);
        return thread;
    });
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private ScriptedServer(Script script) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            requests.add(
                    exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath());
            try {
                script.answer(exchange);
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    static ScriptedServer start(Script script) {
        return new ScriptedServer(script);
    }

    /** Answers every request with {@code status} and {@code body}, as JSON when it looks like JSON. */
    static ScriptedServer answering(int status, String body) {
        return start(exchange -> send(exchange, status, body.getBytes(UTF_8)));
    }

    static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        boolean json = body.length > 0 && body[0] == '{';
        exchange.getResponseHeaders().set("Content-Type", json ? "application/json" : "text/html; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
    }

    /** {@code http://127.0.0.1:PORT}. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The requests so far, as {@code "GET /schemas/ids/1"}. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
