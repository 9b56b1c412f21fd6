package dev.utf8sanitiser.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.utf8sanitiser.testkit.SchemaStore.RegistryError;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * A <b>test</b> Schema Registry: a minimal, in-memory server for the part of Confluent's Schema
 * Registry REST API that this project's tests and demo need, on the JDK's own HTTP server on a free
 * port of 127.0.0.1. Not for production: nothing is persisted, nothing is replicated, schemas are
 * never checked for compatibility and never deleted, and it does no more security than the optional
 * checks below. Confluent's registry cannot be installed here (it is not on Maven Central, and there
 * is no Docker), so tests of the registry client run against this; where Docker exists, tests also
 * run against the real image.
 *
 * <pre>{@code
 * try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
 *     int id = registry.register("orders-value", "{\"type\":\"string\"}");
 *     Map<String, Object> config = registry.clientConfig(); // schema.registry.url and TLS/auth keys
 * }
 * }</pre>
 *
 * <p>What it answers, as Confluent's registry does (JSON bodies, content type {@code
 * application/vnd.schemaregistry.v1+json}):
 *
 * <ul>
 *   <li>{@code POST /subjects/{subject}/versions} with {@code {"schema": "...", "schemaType":
 *       "AVRO", "references": [...]}}: {@code {"id": N}}. Ids are global and start at 1; the same
 *       schema gets the same id in every subject, and registering it again under a subject adds no
 *       version. An Avro schema without references is checked with Apache Avro and kept in Avro's
 *       compact form, so that spacing does not matter; one with references is checked (its
 *       references must exist) and kept as sent. {@code JSON} and {@code PROTOBUF} schemas are kept
 *       as sent, unchecked.
 *   <li>{@code GET /schemas/ids/{id}}: {@code {"schema": "...", "schemaType": ..., "references":
 *       [...]}}, {@code schemaType} left out for Avro and {@code references} when there are none.
 *   <li>{@code GET /subjects}, {@code GET /subjects/{subject}/versions} and {@code GET
 *       /subjects/{subject}/versions/{version|latest}}.
 *   <li>Errors as {@code {"error_code": 40403, "message": "Schema 7 not found"}}: 40401 subject, 40402
 *       version, 40403 schema not found; 42201 invalid schema, 42202 invalid version; 401 when a
 *       required credential is missing or wrong.
 * </ul>
 *
 * <p>Hooks for tests: {@link Builder#basicAuth} or {@link Builder#bearerToken} to require
 * credentials; {@link Builder#https()} for TLS with a self-signed certificate made at start-up (and
 * {@link Builder#requireClientCertificate()} for mutual TLS); {@link #failNext} to answer the next
 * requests with a server error; {@link #delayResponses} to answer slowly; {@link #stop()} and
 * {@link #restart()} to be unreachable for a while on the same port; {@link #requestCount()} and
 * {@link #requests()} to see what a client asked (for example, that a cache held).
 */
public final class TestSchemaRegistry implements AutoCloseable {
    /** The content type of every answer, as Confluent's registry sends it. */
    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REALM = "TestSchemaRegistry";
    private static final AtomicInteger THREADS = new AtomicInteger();

    /**
     * The files a client needs for a registry started with {@link Builder#https()}: all PKCS12, all
     * with the same password.
     *
     * @param trustStore trusts the registry's certificate
     * @param clientKeyStore the client's key and certificate, when the registry {@linkplain
     *     Builder#requireClientCertificate() requires one}
     */
    public record Tls(Path trustStore, Optional<Path> clientKeyStore, String password, String type) {}

    private final Builder options;
    private final Path directory;
    private final Optional<Tls> tls;
    private final Optional<SSLContext> sslContext;
    private final SchemaStore store = new SchemaStore();
    private final Object lock = new Object(); // guards the server
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final AtomicInteger failureStatus = new AtomicInteger(503);
    private final AtomicLong delayMillis = new AtomicLong();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private int port;
    private HttpServer server;
    private ExecutorService executor;

    private TestSchemaRegistry(Builder options) {
        this.options = options;
        try {
            this.directory = Files.createTempDirectory("test-schema-registry-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.tls = options.https ? Optional.of(makeCertificates()) : Optional.empty();
        this.sslContext = tls.map(files -> serverSslContext());
        listen(options.port);
    }

    /** A plain-HTTP registry that requires no credentials, started. */
    public static TestSchemaRegistry start() {
        return builder().start();
    }

    /** Options for a registry: credentials, TLS. */
    public static Builder builder() {
        return new Builder();
    }

    /** {@code http://127.0.0.1:PORT} or {@code https://127.0.0.1:PORT}, for {@code schema.registry.url}. */
    public String url() {
        return (tls.isPresent() ? "https" : "http") + "://127.0.0.1:" + port;
    }

    /** The port, the same after {@link #restart()}. */
    public int port() {
        return port;
    }

    /** The TLS files for clients, when the registry was started with {@link Builder#https()}. */
    public Optional<Tls> tls() {
        return tls;
    }

    /**
     * A new, modifiable client configuration: {@code schema.registry.url}, and the settings a client
     * needs for this registry's TLS and credentials, under the names of Confluent's clients.
     */
    public Map<String, Object> clientConfig() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("schema.registry.url", url());
        tls.ifPresent(files -> {
            config.put(
                    "schema.registry.ssl.truststore.location",
                    files.trustStore().toString());
            config.put("schema.registry.ssl.truststore.password", files.password());
            config.put("schema.registry.ssl.truststore.type", files.type());
            files.clientKeyStore().ifPresent(keyStore -> {
                config.put("schema.registry.ssl.keystore.location", keyStore.toString());
                config.put("schema.registry.ssl.keystore.password", files.password());
                config.put("schema.registry.ssl.keystore.type", files.type());
            });
        });
        if (options.basicUser != null) {
            config.put("basic.auth.credentials.source", "USER_INFO");
            config.put("basic.auth.user.info", options.basicUser + ":" + options.basicPassword);
        }
        if (options.bearerToken != null) {
            config.put("bearer.auth.token", options.bearerToken);
        }
        return config;
    }

    /** Registers an Avro schema under {@code subject}, as a client's POST would; returns its id. */
    public int register(String subject, String schema) {
        return register(subject, SchemaStore.AVRO, schema, List.of());
    }

    /**
     * Registers a schema of any type under {@code subject}, as a client's POST would; returns its id.
     *
     * @throws IllegalArgumentException the registry would refuse it (invalid Avro, a missing reference)
     */
    public int register(String subject, String schemaType, String schema, List<SchemaReference> references) {
        try {
            return store.store(subject, schemaType, schema, references);
        } catch (RegistryError e) {
            throw new IllegalArgumentException(e.getMessage() + " (error code " + e.errorCode + ")");
        }
    }

    /** Answers the next {@code count} requests, whatever they are, with HTTP {@code status} (500, 503...). */
    public void failNext(int count, int status) {
        failureStatus.set(status);
        failuresLeft.set(count);
    }

    /** Waits this long before answering each request from now on; zero for no delay. */
    public void delayResponses(Duration delay) {
        delayMillis.set(delay.toMillis());
    }

    /** How many requests arrived since start (or {@link #clearRequests()}), answered or not. */
    public int requestCount() {
        return requests.size();
    }

    /** The requests that arrived, in order, as {@code "GET /schemas/ids/1"}. */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    /** Forgets the requests seen so far. */
    public void clearRequests() {
        requests.clear();
    }

    /**
     * Stops listening: connections are refused until {@link #restart()}. The schemas are kept. Does
     * nothing when already stopped.
     */
    public void stop() {
        synchronized (lock) {
            if (server != null) {
                server.stop(0);
                executor.shutdownNow();
                server = null;
                executor = null;
            }
        }
    }

    /** Listens again, on the same port, with the same schemas. Does nothing when already running. */
    public void restart() {
        synchronized (lock) {
            if (server == null) {
                listen(port);
            }
        }
    }

    /** Whether it is listening. */
    public boolean isRunning() {
        synchronized (lock) {
            return server != null;
        }
    }

    /** Stops and deletes the TLS files. */
    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(file -> file.toFile().delete());
        } catch (IOException e) {
            // A temporary directory left behind is no reason to fail a test.
        }
    }

    private void listen(int requestedPort) {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), requestedPort);
        HttpServer created;
        try {
            if (sslContext.isPresent()) {
                HttpsServer https = HttpsServer.create(address, 0);
                boolean needClientAuth = options.clientCertificate;
                https.setHttpsConfigurator(new HttpsConfigurator(sslContext.get()) {
                    @Override
                    public void configure(HttpsParameters params) {
                        SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
                        parameters.setNeedClientAuth(needClientAuth);
                        params.setSSLParameters(parameters);
                    }
                });
                created = https;
            } else {
                created = HttpServer.create(address, 0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address, e);
        }
        executor = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "test-schema-registry-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        created.setExecutor(executor);
        created.createContext("/", this::handle);
        created.start();
        server = created;
        port = created.getAddress().getPort();
    }

    private Tls makeCertificates() {
        List<String> names = options.certificateNames.isEmpty()
                ? List.of("dns:localhost", "ip:127.0.0.1")
                : options.certificateNames;
        Path keyStore = TestCertificates.keyStore(directory.resolve("registry.p12"), "registry", names);
        Path trustStore = TestCertificates.trustStore(directory.resolve("truststore.p12"), keyStore, "registry");
        Optional<Path> clientKeyStore = options.clientCertificate
                ? Optional.of(
                        TestCertificates.keyStore(directory.resolve("client.p12"), "client", List.of("dns:client")))
                : Optional.empty();
        return new Tls(trustStore, clientKeyStore, TestCertificates.PASSWORD, TestCertificates.STORE_TYPE);
    }

    private SSLContext serverSslContext() {
        Tls files = tls.orElseThrow();
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(
                    TestCertificates.load(directory.resolve("registry.p12")), TestCertificates.PASSWORD.toCharArray());
            TrustManagerFactory trust = null;
            if (files.clientKeyStore().isPresent()) {
                KeyStore clients = KeyStore.getInstance(TestCertificates.STORE_TYPE);
                clients.load(null, null);
                clients.setCertificateEntry(
                        "client",
                        TestCertificates.load(files.clientKeyStore().get()).getCertificate("client"));
                trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(clients);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot set up TLS for the test registry", e);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            String method = exchange.getRequestMethod();
            requests.add(method + " " + exchange.getRequestURI().getRawPath());
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            pause();
            try {
                if (failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                    int status = failureStatus.get();
                    throw new RegistryError(status, status, "Failure injected by TestSchemaRegistry.failNext");
                }
                authenticate(exchange);
                send(
                        exchange,
                        200,
                        route(
                                method,
                                segments(exchange),
                                exchange.getRequestURI().getRawQuery(),
                                body));
            } catch (RegistryError e) {
                ObjectNode error = JSON.createObjectNode();
                error.put("error_code", e.errorCode);
                error.put("message", e.getMessage());
                if (e.status == 401) {
                    exchange.getResponseHeaders()
                            .add(
                                    "WWW-Authenticate",
                                    (options.bearerToken != null ? "Bearer" : "Basic") + " realm=\"" + REALM + "\"");
                }
                send(exchange, e.status, error);
            } catch (RuntimeException e) {
                ObjectNode error = JSON.createObjectNode();
                error.put("error_code", 50001);
                error.put("message", "TestSchemaRegistry failed: " + e);
                send(exchange, 500, error);
            }
        } finally {
            exchange.close();
        }
    }

    private void pause() {
        long millis = delayMillis.get();
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void authenticate(HttpExchange exchange) throws RegistryError {
        String expected;
        if (options.basicUser != null) {
            expected = "Basic "
                    + Base64.getEncoder()
                            .encodeToString((options.basicUser + ":" + options.basicPassword).getBytes(UTF_8));
        } else if (options.bearerToken != null) {
            expected = "Bearer " + options.bearerToken;
        } else {
            return;
        }
        if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            throw new RegistryError(401, 401, "Unauthorized");
        }
    }

    private static List<String> segments(HttpExchange exchange) {
        String path = exchange.getRequestURI().getRawPath();
        return Arrays.stream(path.split("/"))
                .filter(segment -> !segment.isEmpty())
                .map(segment -> URLDecoder.decode(segment.replace("+", "%2B"), UTF_8))
                .toList();
    }

    private JsonNode route(String method, List<String> path, String query, byte[] body) throws RegistryError {
        boolean get = method.equals("GET");
        if (!path.isEmpty() && path.get(0).equals("config") && path.size() <= 2) {
            String subject = path.size() == 2 ? path.get(1) : null;
            if (method.equals("PUT")) {
                return store.setConfig(subject, body);
            }
            requireMethod(get);
            return store.config(subject, query != null && query.contains("defaultToGlobal=true"));
        }
        if (path.size() == 1 && path.get(0).equals("mode")) {
            requireMethod(get);
            return JSON.createObjectNode().put("mode", "READWRITE");
        }
        if (path.size() == 2 && path.get(0).equals("subjects") && method.equals("POST")) {
            return store.lookup(path.get(1), body);
        }
        if (path.size() == 5
                && path.get(0).equals("compatibility")
                && path.get(1).equals("subjects")
                && path.get(3).equals("versions")) {
            requireMethod(method.equals("POST"));
            return store.compatibility(path.get(2), path.get(4), body);
        }
        if (path.size() == 3 && path.get(0).equals("schemas") && path.get(1).equals("ids")) {
            requireMethod(get);
            return store.schemaById(path.get(2));
        }
        if (path.size() == 1 && path.get(0).equals("subjects")) {
            requireMethod(get);
            ArrayNode names = JSON.createArrayNode();
            store.subjectNames().forEach(names::add);
            return names;
        }
        if (path.size() == 3 && path.get(0).equals("subjects") && path.get(2).equals("versions")) {
            if (method.equals("POST")) {
                ObjectNode answer = JSON.createObjectNode();
                answer.put("id", store.register(path.get(1), body));
                return answer;
            }
            requireMethod(get);
            ArrayNode versions = JSON.createArrayNode();
            int count = store.versionsOf(path.get(1)).size();
            for (int version = 1; version <= count; version++) {
                versions.add(version);
            }
            return versions;
        }
        if (path.size() == 4 && path.get(0).equals("subjects") && path.get(2).equals("versions")) {
            requireMethod(get);
            return store.subjectVersion(path.get(1), path.get(3));
        }
        throw new RegistryError(404, 404, "HTTP 404 Not Found");
    }

    private static void requireMethod(boolean allowed) throws RegistryError {
        if (!allowed) {
            throw new RegistryError(405, 405, "HTTP 405 Method Not Allowed");
        }
    }

    private static void send(HttpExchange exchange, int status, JsonNode answer) throws IOException {
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(answer);
        } catch (JsonProcessingException e) {
            throw new IOException(e);
        }
        exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** Options for {@link TestSchemaRegistry}. */
    public static final class Builder {
        private String basicUser;
        private String basicPassword;
        private String bearerToken;
        private boolean https;
        private boolean clientCertificate;
        private List<String> certificateNames = List.of();
        private int port;

        private Builder() {}

        /** Listens on this port of 127.0.0.1 rather than a free one (a stand-in registry in a container). */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Requires HTTP Basic credentials on every request; anything else gets 401. */
        public Builder basicAuth(String user, String password) {
            this.basicUser = Objects.requireNonNull(user, "user");
            this.basicPassword = Objects.requireNonNull(password, "password");
            this.bearerToken = null;
            return this;
        }

        /** Requires {@code Authorization: Bearer <token>} on every request; anything else gets 401. */
        public Builder bearerToken(String token) {
            this.bearerToken = Objects.requireNonNull(token, "token");
            this.basicUser = null;
            return this;
        }

        /**
         * Serves HTTPS with a self-signed certificate for {@code localhost} and {@code 127.0.0.1},
         * made at start-up; {@link TestSchemaRegistry#tls()} has the trust store for clients.
         */
        public Builder https() {
            this.https = true;
            return this;
        }

        /**
         * Serves HTTPS with a certificate for these subject alternative names instead ({@code
         * dns:elsewhere.example}), to test a client's host name check.
         */
        public Builder https(String... certificateNames) {
            this.https = true;
            this.certificateNames = List.of(certificateNames);
            return this;
        }

        /** Serves HTTPS and requires a client certificate; {@link Tls#clientKeyStore()} has one. */
        public Builder requireClientCertificate() {
            this.https = true;
            this.clientCertificate = true;
            return this;
        }

        /** Starts the registry on 127.0.0.1, on a free port unless {@link #port} chose one. */
        public TestSchemaRegistry start() {
            return new TestSchemaRegistry(this);
        }
    }
}
