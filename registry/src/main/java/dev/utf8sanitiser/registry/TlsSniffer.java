package dev.utf8sanitiser.registry;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * Tells whether a server that closed a plain-HTTP connection without an answer speaks TLS: it
 * starts a TLS handshake and sends nothing else. A server that completes the handshake, or shows a
 * certificate that fails the checks, speaks TLS; one that answers the greeting with something else
 * or nothing does not. Only to say "use https://" instead of the JDK's "header parser received no
 * bytes": nothing is trusted or sent on this connection.
 */
final class TlsSniffer {
    private TlsSniffer() {}

    static boolean speaksTls(String host, int port, Duration timeout, SSLContext context) {
        // At least a millisecond: 0 would mean no limit to the socket.
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(host, port), millis);
            plain.setSoTimeout(millis);
            try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, false)) {
                tls.startHandshake();
                return true;
            }
        } catch (IOException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof CertificateException) {
                    return true;
                }
            }
            return false;
        }
    }
}
