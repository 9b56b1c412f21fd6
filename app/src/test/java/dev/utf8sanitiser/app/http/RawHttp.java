package dev.utf8sanitiser.app.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 written by hand on a socket, for what a well-behaved client library will not send: a
 * forged {@code Host}, half a request, a huge header.
 */
public final class RawHttp {
    private RawHttp() {}

    /** A response: the status, the headers (names in lower case) and the body. */
    public record Answer(int status, Map<String, String> headers, String body) {}

    /** Sends {@code request} (its bytes as given) and reads the response until the server closes. */
    public static Answer exchange(int port, String request) throws IOException {
        return exchange(port, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    public static Answer exchange(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            return parse(socket.getInputStream().readAllBytes());
        }
    }

    /** {@code GET path} with {@code Host} and {@code Connection: close}. */
    public static Answer request(int port, String method, String path, String host) throws IOException {
        return exchange(port, method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    }

    private static Answer parse(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new AssertionError("no complete response: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(
                    lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).strip());
        }
        return new Answer(status, headers, new String(bytes, end + 4, bytes.length - end - 4, StandardCharsets.UTF_8));
    }

    /** A connection that sent half a request line and waits. */
    public static Socket half(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        socket.getOutputStream().write("GET /health/li".getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    /**
     * How long until the server closes {@code socket} (what it sends first, a 408 say, is read and
     * ignored); fails when it is still open after {@code atMost}.
     */
    public static Duration closedWithin(Socket socket, Duration atMost) throws IOException {
        long start = System.nanoTime();
        socket.setSoTimeout((int) atMost.toMillis());
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream ignored = new ByteArrayOutputStream();
        try {
            byte[] buffer = new byte[1024];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                ignored.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept the connection open for " + atMost);
        } catch (IOException e) {
            // reset by the server: closed too
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
