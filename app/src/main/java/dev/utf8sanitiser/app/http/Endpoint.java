package dev.utf8sanitiser.app.http;

import java.util.Set;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;

/**
 * A path that is only read (GET or HEAD): a probe or the metrics. A probe answers from memory and
 * never blocks, so Jetty may answer it on the thread that read the request.
 */
public final class Endpoint extends Handler.Abstract {
    private static final Set<String> READ = Set.of("GET", "HEAD");

    private final Supplier<Reply> reply;

    private Endpoint(InvocationType invocation, Supplier<Reply> reply) {
        super(invocation);
        this.reply = reply;
    }

    /** {@code reply} answers from memory at once. */
    public static Endpoint probe(Supplier<Reply> reply) {
        return new Endpoint(InvocationType.NON_BLOCKING, reply);
    }

    /** {@code reply} may take a while (a scrape of every metric). */
    public static Endpoint blocking(Supplier<Reply> reply) {
        return new Endpoint(InvocationType.BLOCKING, reply);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!Reply.isRead(request)) {
            return Reply.methodNotAllowed(READ).send(response, callback);
        }
        return reply.get().send(response, callback);
    }

    /** Any path no route names. */
    static final class NotFound extends Handler.Abstract.NonBlocking {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            return Reply.text(404, "Not found\n").send(response, callback);
        }
    }
}
