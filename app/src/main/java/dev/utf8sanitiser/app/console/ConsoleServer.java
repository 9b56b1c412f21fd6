package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.http.HttpLimits;
import dev.utf8sanitiser.app.http.HttpPort;
import dev.utf8sanitiser.app.http.Reply;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Where the console is served: beside {@code run}'s probes and metrics, or on its own ({@code dlq serve}). */
public final class ConsoleServer implements AutoCloseable {
    /** The path spec of the console's pages. */
    public static final String PATHS = Layout.ROOT + "/*";

    private final HttpPort port;

    private ConsoleServer(HttpPort port) {
        this.port = port;
    }

    /**
     * The console's pages, for a server that also serves other paths: they answer only requests
     * that arrive at {@code sanitiser.console.address}, and run {@link HttpLimits#heavyRequests()}
     * at once.
     */
    public static Handler handler(Console console, HttpLimits limits) {
        return HttpPort.limited(new ConsoleHandler(console, address(console), limits.maxFormBytes()), limits);
    }

    /** A server of the console alone, bound to {@code sanitiser.console.address} and {@code port} (0: any free). */
    public static ConsoleServer serve(Console console, int port) throws IOException {
        return serve(console, port, HttpLimits.DEFAULT);
    }

    static ConsoleServer serve(Console console, int port, HttpLimits limits) throws IOException {
        return new ConsoleServer(HttpPort.start(
                Optional.of(console.settings().address()),
                port,
                limits,
                Map.of(PATHS, handler(console, limits), "/", new ToConsole())));
    }

    public InetSocketAddress address() {
        return port.address();
    }

    private static InetAddress address(Console console) {
        try {
            return InetAddress.getByName(console.settings().address()); // a literal, checked by the config
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Any other path of {@code dlq serve}: to the overview. */
    private static final class ToConsole extends Handler.Abstract.NonBlocking {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            if (!Reply.isRead(request)) {
                return Reply.methodNotAllowed(Set.of("GET", "HEAD")).send(response, callback);
            }
            return new Reply(302, Reply.TEXT, "", Map.of("Location", Layout.ROOT + "/")).send(response, callback);
        }
    }

    @Override
    public void close() {
        port.close();
    }
}
