package dev.utf8sanitiser.app.http;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.eclipse.jetty.io.Connection;

/**
 * The port's connection limit, kept so that clients that never finish a request cannot take every
 * connection. Jetty's own limit ({@code NetworkConnectionLimit}) stops accepting at the limit: a
 * client that opens that many connections and sends a byte now and then (each byte resets the
 * idle timeout) would keep a Kubernetes probe waiting in the listen backlog for as long as it
 * liked. Here every connection is accepted, and one past the limit closes the open connection that
 * has made no progress for longest (no request read since it opened or since its last request, for
 * at least {@code stalledAfter}); when none has stalled that long, the new connection is closed
 * instead. A client that sends whole requests, as probes and scrapers do, makes progress at once
 * and is not the one closed; a keep-alive connection idle between two scrapes may be, which costs
 * its client a reconnect.
 */
final class StalledConnectionEviction implements Connection.Listener {
    private final int limit;
    private final long stalledAfterNanos;
    private final LongSupplier nanoTime;
    /** Each open connection, oldest first, with its requests read and when that number last grew. */
    private final Map<Connection, Progress> open = new LinkedHashMap<>();

    StalledConnectionEviction(int limit, long stalledAfterNanos, LongSupplier nanoTime) {
        this.limit = limit;
        this.stalledAfterNanos = stalledAfterNanos;
        this.nanoTime = nanoTime;
    }

    @Override
    public void onOpened(Connection connection) {
        Connection closing = null;
        synchronized (open) {
            open.put(connection, new Progress(connection.getMessagesIn(), nanoTime.getAsLong()));
            if (open.size() > limit) {
                closing = mostStalled(connection);
                if (closing == null) {
                    closing = connection;
                }
            }
        }
        if (closing != null) {
            closing.getEndPoint().close(); // thread-safe; onClosed forgets it
        }
    }

    @Override
    public void onClosed(Connection connection) {
        synchronized (open) {
            open.remove(connection);
        }
    }

    /** The connection stalled for longest, not {@code opened}; null when none is stalled yet. */
    private Connection mostStalled(Connection opened) {
        long now = nanoTime.getAsLong();
        Connection oldest = null;
        long oldestSince = 0;
        for (Iterator<Map.Entry<Connection, Progress>> it = open.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Connection, Progress> entry = it.next();
            Connection connection = entry.getKey();
            Progress progress = entry.getValue();
            long requests = connection.getMessagesIn();
            if (requests != progress.requests) {
                progress.requests = requests;
                progress.since = now;
            }
            if (connection != opened
                    && now - progress.since >= stalledAfterNanos
                    && (oldest == null || progress.since < oldestSince)) {
                oldest = connection;
                oldestSince = progress.since;
            }
        }
        return oldest;
    }

    /** How many requests a connection had read, and since when. */
    private static final class Progress {
        long requests;
        long since;

        Progress(long requests, long since) {
            this.requests = requests;
            this.since = since;
        }
    }
}
