package dev.utf8sanitiser.app.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** A whole answer, sent at once with its length (a HEAD request gets the headers alone). */
public record Reply(int status, String type, String body, Map<String, String> headers) {
    public static final String TEXT = "text/plain; charset=utf-8";

    public Reply {
        headers = Map.copyOf(headers);
    }

    public static Reply text(int status, String body) {
        return new Reply(status, TEXT, body, Map.of());
    }

    /** 405 with the methods that are allowed, as {@code Allow} names them. */
    public static Reply methodNotAllowed(Set<String> allowed) {
        String allow = String.join(", ", allowed.stream().sorted().toList());
        return new Reply(405, TEXT, "Method not allowed: " + allow + "\n", Map.of("Allow", allow));
    }

    /** Sends this reply and completes {@code callback}; always true, as a handler returns it. */
    public boolean send(Response response, Callback callback) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        headers.forEach(response.getHeaders()::put);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
        return true;
    }

    /** Whether {@code request} is a GET or a HEAD. */
    public static boolean isRead(Request request) {
        return request.getMethod().equals("GET") || request.getMethod().equals("HEAD");
    }
}
