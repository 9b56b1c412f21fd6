package dev.utf8sanitiser.registry;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.utf8sanitiser.config.SchemaRegistrySettings;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.net.ssl.SSLHandshakeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of {@link RestSchemaRegistry}: the registry's URLs with their credentials, one
 * {@code HttpClient} (TLS as configured, no redirects), and each request sent with failover over
 * the URLs, retries with backoff within {@code max.retries} and {@code
 * sanitiser.registry.retry.timeout.ms}, answers bounded in time and size, and the messages that
 * say what went wrong (TLS, credentials, a plain-HTTP URL for a TLS server). What the paths and
 * the answers mean is the protocol's, in {@link RestSchemaRegistry}.
 */
final class RegistryTransport {
    private static final String ACCEPT =
            "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json; qs=0.9, application/json; qs=0.5";
    // The retry warnings keep the client's name, which operators know them by.
    private static final Logger LOG = LoggerFactory.getLogger(RestSchemaRegistry.class);

    private final SchemaRegistrySettings settings;
    private final List<Endpoint> endpoints;
    private final HttpClient http;
    private final AtomicInteger preferred = new AtomicInteger();

    RegistryTransport(SchemaRegistrySettings settings) {
        this.settings = settings;
        this.endpoints = settings.urls().stream().map(this::endpoint).toList();
        HttpClient.Builder builder =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER);
        if (!settings.connectTimeout().isZero()) {
            builder.connectTimeout(settings.connectTimeout());
        }
        if (RegistryTls.customised(settings)) {
            builder.sslContext(RegistryTls.sslContext(settings));
        }
        this.http = builder.build();
    }

    /** The URLs, in configured order. */
    List<Endpoint> endpoints() {
        return endpoints;
    }

    /** One registry URL, without its user information, and what to send it as {@code Authorization}. */
    record Endpoint(String base, Optional<String> authorization, String credentials) {}

    /** An answer that is not a transient failure, and the URL that gave it. */
    record Reply(Endpoint endpoint, String method, URI uri, int status, byte[] body) {}

    /** A failure that another URL, or the same one later, may not have. */
    static final class TransientFailure extends Exception {
        private static final long serialVersionUID = 1L;
        final String description;

        TransientFailure(String description, Exception cause) {
            super(description, cause, false, false);
            this.description = description;
        }
    }

    /**
     * Sends one request, retrying transient failures over every URL as the class comment says, and
     * returns the first answer that is not one.
     */
    Reply exchange(String method, String path, String body, String purpose) {
        return exchange(method, path, body, purpose, System.nanoTime());
    }

    /** As {@link #exchange(String, String, String, String)}, for a lookup that began at {@code start}. */
    Reply exchange(String method, String path, String body, String purpose, long start) {
        long deadline = start + settings.retryTimeout().toNanos();
        Map<String, String> failures = new LinkedHashMap<>();
        Exception lastCause = null;
        int attempts = 0;
        for (int retries = 0; ; retries++) {
            int first = preferred.get();
            for (int i = 0; i < endpoints.size(); i++) {
                int index = (first + i) % endpoints.size();
                Endpoint endpoint = endpoints.get(index);
                long remaining = deadline - System.nanoTime();
                if (attempts > 0 && remaining <= 0) {
                    break;
                }
                attempts++;
                try {
                    Reply reply = attempt(endpoint, method, path, body, purpose, remaining);
                    preferred.set(index);
                    return reply;
                } catch (TransientFailure e) {
                    boolean clipped = e.getCause() instanceof HttpTimeoutException
                            && remaining < settings.readTimeout().toNanos()
                            && failures.containsKey(endpoint.base());
                    if (!clipped) {
                        // A timeout the retry budget cut short says less than the failure before it.
                        failures.put(endpoint.base(), e.description);
                        lastCause = e.getCause() instanceof Exception cause ? cause : null;
                    }
                    preferred.compareAndSet(index, (index + 1) % endpoints.size());
                }
            }
            long elapsed = System.nanoTime() - start;
            if (retries >= settings.maxRetries()) {
                throw unavailable(
                        purpose, failures, attempts, elapsed, "max.retries=" + settings.maxRetries(), lastCause);
            }
            long wait = backoff(retries);
            if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(wait) >= deadline) {
                throw unavailable(
                        purpose,
                        failures,
                        attempts,
                        elapsed,
                        "sanitiser.registry.retry.timeout.ms="
                                + settings.retryTimeout().toMillis(),
                        lastCause);
            }
            LOG.warn(
                    "Schema Registry: {} failed ({}); retry {} of {} in {} ms",
                    purpose,
                    summary(failures),
                    retries + 1,
                    settings.maxRetries(),
                    wait);
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RegistryUnavailableException(
                        "Interrupted while waiting to retry " + purpose + " (" + summary(failures) + ")", e);
            }
        }
    }

    /**
     * One request to one URL, its whole answer within {@link #attemptTimeout} and {@link
     * BoundedBody#LIMIT}.
     *
     * @throws TransientFailure no connection, no complete answer in time, HTTP 408, 429 or 5xx
     * @throws RegistryMisconfiguredException failed TLS, {@code http://} to TLS, a redirect
     * @throws RegistryUnavailableException an answer past the size limit, or interrupted
     */
    Reply attempt(Endpoint endpoint, String method, String path, String body, String purpose, long remaining)
            throws TransientFailure {
        URI uri = URI.create(endpoint.base() + path);
        Optional<Duration> timeout = attemptTimeout(remaining);
        long started = System.nanoTime();
        HttpResponse<byte[]> response;
        try {
            response = HttpAttempt.send(http, request(endpoint, uri, method, body, timeout), timeout);
        } catch (IOException e) {
            if (causedBy(e, BoundedBody.TooLargeException.class)) {
                throw new RegistryUnavailableException(
                        "The Schema Registry at " + endpoint.base() + " answered " + purpose + " (" + method + " " + uri
                                + ") with more than " + BoundedBody.LIMIT + " bytes, the most the client reads"
                                + " (docs/schema-registry.md); not retried: is schema.registry.url right?",
                        e);
            }
            if (isTlsFailure(e)) {
                throw new RegistryMisconfiguredException(tlsMessage(endpoint, e), e);
            }
            if (uri.getScheme().equals("http")
                    && closedWithoutAnswer(e)
                    && TlsSniffer.speaksTls(
                            uri.getHost(),
                            uri.getPort() == -1 ? 80 : uri.getPort(),
                            // What the attempt has left, so that the check keeps within its time.
                            timeout.map(limit -> limit.minusNanos(System.nanoTime() - started))
                                    .orElse(settings.connectTimeout()),
                            http.sslContext())) {
                throw new RegistryMisconfiguredException(
                        "The server at " + endpoint.base() + " did not answer HTTP: it speaks TLS, so"
                                + " schema.registry.url must start with https:// ("
                                + endpoint.base().replaceFirst("^http:", "https:") + ")",
                        e);
            }
            throw new TransientFailure(describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryUnavailableException(
                    "Interrupted while asking the Schema Registry at " + endpoint.base() + " for " + purpose, e);
        }
        int status = response.statusCode();
        if (status == 408 || status == 429 || status >= 500) {
            throw new TransientFailure(ErrorBody.of(response.body()).describe(status), null);
        }
        if (status >= 300 && status < 400) {
            String location = response.headers()
                    .firstValue("Location")
                    .map(ErrorBody::quote)
                    .orElse("nowhere");
            throw new RegistryMisconfiguredException("The Schema Registry at " + endpoint.base() + " redirected "
                    + purpose + " (" + method + " " + uri + ", HTTP " + status + ") to " + location
                    + "; the client does not follow redirects: set schema.registry.url to the registry's own URL");
        }
        return new Reply(endpoint, method, uri, status, response.body());
    }

    /** The wait before retry {@code retries} (from 0): doubling, capped, less up to half at random. */
    private long backoff(int retries) {
        long base = settings.retryWait().toMillis();
        long cap = settings.retryMaxWait().toMillis();
        long wait = Math.min(cap, base << Math.min(retries, 30));
        if (wait < 0) {
            wait = cap;
        }
        return wait - ThreadLocalRandom.current().nextLong(wait / 2 + 1);
    }

    private HttpRequest request(Endpoint endpoint, URI uri, String method, String body, Optional<Duration> timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .header("Accept", ACCEPT)
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, UTF_8));
        if (body != null) {
            request.header("Content-Type", RestSchemaRegistry.CONTENT_TYPE);
        }
        endpoint.authorization().ifPresent(value -> request.header("Authorization", value));
        timeout.ifPresent(request::timeout);
        return request.build();
    }

    /**
     * The most one attempt may take, answer included: the read timeout, and no more than what is left
     * of the retry timeout; with nothing left (a retry timeout of 0), the first attempt has the read
     * timeout alone. Empty only when both are 0, which the configuration refuses.
     */
    private Optional<Duration> attemptTimeout(long remainingNanos) {
        Optional<Duration> timeout =
                settings.readTimeout().isZero() ? Optional.empty() : Optional.of(settings.readTimeout());
        if (remainingNanos > 0) {
            Duration remaining = Duration.ofNanos(remainingNanos);
            timeout = Optional.of(
                    timeout.filter(read -> read.compareTo(remaining) < 0).orElse(remaining));
        }
        return timeout;
    }

    private Endpoint endpoint(URI url) {
        String base = url.getScheme().toLowerCase(Locale.ROOT) + "://" + url.getHost()
                + (url.getPort() == -1 ? "" : ":" + url.getPort())
                + Optional.ofNullable(url.getRawPath()).orElse("").replaceAll("/+$", "");
        Optional<String> authorization;
        String credentials;
        if (settings.bearerToken().isPresent()) {
            authorization = Optional.of("Bearer " + settings.bearerToken().get().value());
            credentials = "a bearer token (bearer.auth.token)";
        } else {
            authorization = settings.basicUserInfo(url)
                    .map(userInfo -> "Basic "
                            + Base64.getEncoder()
                                    .encodeToString(userInfo.value().getBytes(UTF_8)));
            credentials = authorization.isPresent()
                    ? "HTTP Basic credentials (basic.auth.credentials.source=" + settings.basicAuthSource() + ")"
                    : "no credentials";
        }
        return new Endpoint(base, authorization, credentials);
    }

    private static boolean isTlsFailure(Throwable e) {
        return causedBy(e, SSLHandshakeException.class) || causedBy(e, CertificateException.class);
    }

    private static String tlsMessage(Endpoint endpoint, IOException e) {
        String reason = e.getMessage();
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null) {
                reason = cause.getMessage();
            }
        }
        return "TLS with the Schema Registry at " + endpoint.base() + " failed: "
                + ErrorBody.quote(String.valueOf(reason)) + ". Check "
                + "schema.registry.ssl.truststore.* (the registry's certificate must be trusted), "
                + "schema.registry.ssl.endpoint.identification.algorithm (the certificate must name the host), "
                + "and schema.registry.ssl.keystore.* if the registry asks for a client certificate";
    }

    static String authMessage(Endpoint endpoint, int status, byte[] body, String purpose) {
        return "The Schema Registry at " + endpoint.base() + " refused " + purpose + " ("
                + ErrorBody.of(body).describe(status) + "); the client sent " + endpoint.credentials() + ". "
                + (status == 401
                        ? "Check basic.auth.credentials.source and basic.auth.user.info, or bearer.auth.token."
                        : "The credentials were accepted but lack the permission.")
                + " Not retried: processing stops until the configuration is fixed";
    }

    private static String describe(IOException e) {
        if (e instanceof HttpConnectTimeoutException) {
            return "connection timed out";
        }
        if (e instanceof HttpAttempt.AnswerTimeoutException) {
            return e.getMessage();
        }
        if (e instanceof HttpTimeoutException) {
            return "no answer in time";
        }
        if (closedWithoutAnswer(e)) {
            return "the server closed the connection without an HTTP answer";
        }
        if (e instanceof ConnectException) {
            // The JDK's client says nothing more when the connection is refused.
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof UnresolvedAddressException) {
                    return "cannot connect: unknown host";
                }
                if (cause.getMessage() != null) {
                    return "cannot connect: " + cause.getMessage();
                }
            }
            return "cannot connect: connection refused";
        }
        return e.getClass().getSimpleName() + (e.getMessage() != null ? ": " + ErrorBody.quote(e.getMessage()) : "");
    }

    /** The JDK's client's way of saying that the server hung up before any byte of an answer. */
    private static boolean closedWithoutAnswer(IOException e) {
        return causedBy(e, EOFException.class) || String.valueOf(e.getMessage()).contains("received no bytes");
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    static String summary(Map<String, String> failures) {
        return failures.entrySet().stream()
                .map(failure -> failure.getKey() + ": " + failure.getValue())
                .collect(Collectors.joining("; "));
    }

    private static RegistryUnavailableException unavailable(
            String purpose,
            Map<String, String> failures,
            int attempts,
            long elapsedNanos,
            String limit,
            Exception cause) {
        String message = "Schema Registry unavailable: " + purpose + " failed " + attempts + " time"
                + (attempts == 1 ? "" : "s") + " in " + String.format(Locale.ROOT, "%.1f", elapsedNanos / 1e9)
                + " s (" + limit + "); last failure per URL: " + summary(failures);
        return cause == null
                ? new RegistryUnavailableException(message)
                : new RegistryUnavailableException(message, cause);
    }
}
