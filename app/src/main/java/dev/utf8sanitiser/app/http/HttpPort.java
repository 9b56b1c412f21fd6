package dev.utf8sanitiser.app.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP port of {@code run} (probes, metrics, console) and of {@code dlq serve}, on Jetty's core
 * server (no servlets). Jetty rather than the JDK's {@code com.sun.net.httpserver}: Jetty parses
 * requests on its NIO selector, so a client that sends half a request and waits holds no thread;
 * and it has a per-connector idle timeout and request-header limits answered with 431. The JDK's server reads requests on its worker threads, and its timeouts are JVM-wide system
 * properties. {@link HttpLimits} says what a client may hold; at the connection limit, the
 * connection stalled for longest makes room ({@link StalledConnectionEviction}).
 *
 * <p>A probe answers from memory without blocking; console pages and metric scrapes, which may
 * wait on Kafka or take a while, each run at most {@link HttpLimits#heavyRequests()} at once
 * ({@link #limited}), so the threads they may hold leave the probes threads of their own.
 */
public final class HttpPort implements AutoCloseable {
    private final Server server;
    private final ServerConnector connector;

    private HttpPort(Server server, ServerConnector connector) {
        this.server = server;
        this.connector = connector;
    }

    /**
     * Serves {@code routes} (path specs such as {@code /health/live} or {@code /console/*}, to their
     * handlers; anything else gets 404).
     *
     * @param host the address to bind to; empty: every interface
     * @param port 0: any free port
     * @throws IOException the port is in use, or the address is not this machine's
     */
    public static HttpPort start(Optional<String> host, int port, HttpLimits limits, Map<String, Handler> routes)
            throws IOException {
        QueuedThreadPool threads = new QueuedThreadPool(limits.threads(), 2);
        threads.setName("utf8-sanitiser-http");
        threads.setDaemon(true);
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(limits.maxRequestHeaderBytes());
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        host.ifPresent(connector::setHost);
        connector.setPort(port);
        connector.setIdleTimeout(limits.idleTimeout().toMillis());
        server.addConnector(connector);
        connector.addEventListener(new StalledConnectionEviction(
                limits.maxConnections(), limits.stalledAfter().toNanos(), System::nanoTime));
        PathMappingsHandler paths = new PathMappingsHandler();
        Map<String, Handler> all = new LinkedHashMap<>(routes);
        all.putIfAbsent("/", new Endpoint.NotFound());
        all.forEach((spec, handler) -> paths.addMapping(PathSpec.from(spec), handler));
        server.setHandler(paths);
        server.setStopTimeout(1_000);
        try {
            server.start();
        } catch (IOException e) {
            stopQuietly(server);
            throw e;
        } catch (Exception e) {
            stopQuietly(server);
            throw new IOException(e.getMessage(), e);
        }
        return new HttpPort(server, connector);
    }

    /**
     * {@code handler} run at most {@link HttpLimits#heavyRequests()} at once; a request beyond waits,
     * holding no thread, for at most {@link HttpLimits#heavyWait()}, then gets 503.
     */
    public static Handler limited(Handler handler, HttpLimits limits) {
        QoSHandler qos = new QoSHandler(handler);
        qos.setMaxRequestCount(limits.heavyRequests());
        qos.setMaxSuspend(limits.heavyWait());
        qos.setMaxSuspendedRequestCount(limits.maxConnections());
        return qos;
    }

    public InetSocketAddress address() {
        String host = connector.getHost();
        return new InetSocketAddress(host == null ? "0.0.0.0" : host, connector.getLocalPort());
    }

    public int port() {
        return connector.getLocalPort();
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception e) {
            // the start failed already; that is the error to report
        }
    }

    @Override
    public void close() {
        stopQuietly(server);
    }
}
