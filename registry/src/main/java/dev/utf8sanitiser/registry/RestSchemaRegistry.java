package dev.utf8sanitiser.registry;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.config.SchemaRegistryKeys;
import dev.utf8sanitiser.config.SchemaRegistrySettings;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link SchemaRegistry} that speaks the part of Confluent's Schema Registry REST API the
 * sanitiser needs: {@code GET /schemas/ids/{id}} for the writer schema of a record, {@code GET
 * /subjects/{subject}/versions/{version}} for the schemas it references, and {@code POST
 * /subjects/{subject}/versions} to register one (for serializers, the demo and tests).
 *
 * <p><b>Why not Confluent's client:</b> {@code io.confluent:kafka-schema-registry-client} is not on
 * Maven Central, so it cannot be a dependency of this project. This class is the small client the
 * sanitiser needs instead, on the JDK's {@link HttpClient}, Jackson and Apache Avro. The rest of the
 * code sees only {@link SchemaRegistry}, and the settings keep the names of Confluent's clients
 * ({@link SchemaRegistrySettings}, docs/schema-registry.md).
 *
 * <p><b>Protobuf:</b> {@link #protobuf(int)} gives a {@code PROTOBUF} schema's text and the texts
 * of the files it imports, resolved as an Avro schema's references are; parsing them is the
 * caller's (the registry client needs no Protobuf library).
 *
 * <p><b>Caching:</b> a schema id never changes what it names, so every schema fetched is kept for
 * the life of this object, and concurrent lookups of one id make one lookup between them. So are
 * the verdicts that cannot change ({@link NotAvroSchemaException}, {@link
 * UnusableSchemaException}, the latter logged once as a warning); other failures are never kept:
 * the next lookup asks again.
 *
 * <p><b>References</b> are resolved by {@link SchemaReferences}: each subject version once per
 * lookup, without recursion, within its limits on count and depth, cycles refused.
 *
 * <p><b>Failures</b>, as the sanitiser must treat them:
 *
 * <ul>
 *   <li>Confluent's "not found" answer, HTTP 404 with error code 40403 for an id (40401 or 40402 for
 *       a subject version it references): {@link UnknownSchemaException}, the record goes to the
 *       dead-letter topic as {@code UNKNOWN_SCHEMA}.
 *   <li>A schema whose references form a cycle or go past {@link SchemaReferences}' limits, that
 *       references a schema that is not Avro, or that Apache Avro cannot read: {@link
 *       UnusableSchemaException}, the record goes to the dead-letter topic as {@code
 *       UNUSABLE_SCHEMA}. No retry can make that record readable.
 *   <li>{@code schemaType} {@code JSON} or {@code PROTOBUF}: {@link NotAvroSchemaException}.
 *   <li>No connection, a timeout, HTTP 408, 429 or 5xx: transient. The request is tried on the next
 *       URL at once, then again over every URL after a wait that doubles from {@code
 *       retries.wait.ms} up to {@code retries.max.wait.ms} (less a random part, up to half, so that
 *       clients do not retry in step), for at most {@code max.retries} retries, and within {@code
 *       sanitiser.registry.retry.timeout.ms} for the lookup of one id, every request for the
 *       schemas it references included; then {@link RegistryUnavailableException},
 *       naming each URL and its last failure. Never a verdict on a record.
 *   <li>Any other 404 (a web page, an empty body, another error code: a URL without the registry's
 *       path), a redirect, an answer that is not Confluent's JSON, HTTP 401 or 403, a TLS handshake
 *       that fails, or {@code http://} to a server that speaks TLS: {@link
 *       RegistryMisconfiguredException} at once, since retrying cannot help and the operator must
 *       fix the configuration. Any other answer the client does not expect: {@link
 *       RegistryUnavailableException} at once.
 * </ul>
 *
 * <p><b>Limits:</b> an answer is read whole, headers and body, within {@code http.read.timeout.ms}
 * and what is left of {@code sanitiser.registry.retry.timeout.ms}, and at most {@link
 * BoundedBody#LIMIT} bytes of it; past either, reading stops and the connection is closed. Messages
 * quote at most {@link ErrorBody#QUOTE_LIMIT} bytes of what a registry sent.
 *
 * <p>Thread-safe. {@link #close()} drops the caches; the object cannot be used afterwards.
 */
public final class RestSchemaRegistry implements SchemaRegistry {
    /** Confluent's error code for "no such schema" (an id). */
    static final int SCHEMA_NOT_FOUND = 40403;

    /** Confluent's error codes for "no such subject" and "no such version". */
    static final int SUBJECT_NOT_FOUND = 40401;

    static final int VERSION_NOT_FOUND = 40402;

    /** Confluent's content type, sent with every request body. */
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private static final String AVRO = "AVRO";
    private static final Logger LOG = LoggerFactory.getLogger(RestSchemaRegistry.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A schema already registered under a subject. */
    private record Registration(String subject, Schema schema) {}

    private final SchemaRegistrySettings settings;
    private final RegistryTransport transport;
    private final ConcurrentHashMap<Integer, CompletableFuture<Schema>> schemas = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, CompletableFuture<ProtobufSchemaText>> protobufs =
            new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Registration, Integer> registrations = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private RestSchemaRegistry(SchemaRegistrySettings settings) {
        this.settings = settings;
        this.transport = new RegistryTransport(settings);
    }

    /**
     * A client for the registry of a whole configuration.
     *
     * @throws ConfigException {@code schema.registry.url} is not set, names no {@code http} or {@code
     *     https} URL, or a TLS store cannot be read
     */
    public static RestSchemaRegistry create(SanitiserConfig config) {
        return create(config.schemaRegistry()
                .orElseThrow(() -> new ConfigException("Missing " + SchemaRegistryKeys.SCHEMA_REGISTRY_URL_CONFIG
                        + ": a Schema Registry client needs" + " it")));
    }

    /**
     * A client from a plain map, such as the one a Kafka {@code Serde}'s {@code configure} gets:
     * only the Schema Registry keys are read (docs/configuration.md).
     *
     * @throws ConfigException with every problem found in those keys, or as for {@link
     *     #create(SanitiserConfig)}
     */
    public static RestSchemaRegistry create(Map<String, ?> config) {
        return create(SchemaRegistrySettings.from(config));
    }

    /**
     * A client with these settings.
     *
     * @throws ConfigException a URL is not {@code http} or {@code https}, or a TLS store cannot be read
     */
    public static RestSchemaRegistry create(SchemaRegistrySettings settings) {
        Objects.requireNonNull(settings, "settings");
        for (URI url : settings.urls()) {
            String scheme = url.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new ConfigException(
                        SchemaRegistryKeys.SCHEMA_REGISTRY_URL_CONFIG,
                        scheme + "://...",
                        "the REST registry client speaks http and https only");
            }
        }
        return new RestSchemaRegistry(settings);
    }

    @Override
    public Schema schema(int id) {
        return cached(schemas, id, this::fetch);
    }

    @Override
    public ProtobufSchemaText protobuf(int id) {
        return cached(protobufs, id, this::fetchProtobuf);
    }

    private <T> T cached(
            ConcurrentHashMap<Integer, CompletableFuture<T>> cache, int id, java.util.function.IntFunction<T> fetch) {
        ensureOpen();
        CompletableFuture<T> known = cache.get(id);
        if (known != null) {
            return await(known);
        }
        CompletableFuture<T> mine = new CompletableFuture<>();
        CompletableFuture<T> other = cache.putIfAbsent(id, mine);
        if (other != null) {
            return await(other);
        }
        try {
            T schema = fetch.apply(id);
            mine.complete(schema);
            return schema;
        } catch (RuntimeException e) {
            // That an id names a schema of another type, or one that cannot be used, never changes:
            // kept, so that such an id costs one resolution, not one per record. Anything else may
            // be different next time.
            if (e instanceof UnusableSchemaException) {
                LOG.warn(
                        "Schema Registry: {}; its records go to the dead-letter topic as UNUSABLE_SCHEMA",
                        e.getMessage());
            } else if (!(e instanceof NotAvroSchemaException) && !(e instanceof NotProtobufSchemaException)) {
                cache.remove(id, mine);
            }
            mine.completeExceptionally(e);
            throw e;
        }
    }

    @Override
    public int register(String subject, Schema schema) {
        ensureOpen();
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(schema, "schema");
        Registration registration = new Registration(subject, schema);
        Integer known = registrations.get(registration);
        if (known != null) {
            return known;
        }
        ObjectNode request = JSON.createObjectNode();
        request.put("schema", schema.toString());
        request.put("schemaType", AVRO);
        String purpose = "registering a schema under subject " + subject;
        RegistryTransport.Reply reply = transport.exchange(
                "POST", "/subjects/" + pathSegment(subject) + "/versions", request.toString(), purpose);
        if (reply.status() != 200) {
            throw unexpected(reply, purpose);
        }
        JsonNode id = json(reply, purpose).path("id");
        if (!id.canConvertToInt()) {
            throw new RegistryUnavailableException(
                    "The Schema Registry at " + reply.endpoint().base() + " answered " + purpose + " without an id");
        }
        registrations.put(registration, id.intValue());
        schemas.putIfAbsent(id.intValue(), CompletableFuture.completedFuture(schema));
        return id.intValue();
    }

    /** Drops the caches. Lookups afterwards throw {@link IllegalStateException}. */
    @Override
    public void close() {
        closed = true;
        schemas.clear();
        protobufs.clear();
        registrations.clear();
    }

    @Override
    public String toString() {
        return "RestSchemaRegistry"
                + transport.endpoints().stream()
                        .map(RegistryTransport.Endpoint::base)
                        .toList();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this Schema Registry client is closed");
        }
    }

    private static <T> T await(CompletableFuture<T> lookup) {
        try {
            return lookup.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /**
     * Checks, once, that {@code schema.registry.url} leads to a registry that answers as the
     * sanitiser needs, with the credentials and TLS settings given: each URL is asked for schema id
     * 0, which no Confluent registry has (ids start at 1), and must answer with Confluent's "schema
     * not found" (HTTP 404, error code 40403) or with a schema. It is the request a lookup makes, so
     * it needs no permission beyond the one the sanitiser needs anyway. A URL that cannot be reached
     * is retried as a lookup would be, within {@code max.retries} and {@code
     * sanitiser.registry.retry.timeout.ms}, unless another URL answered.
     *
     * @throws RegistryMisconfiguredException a URL answered something else (a web page, a 404 that
     *     is not Confluent's, a redirect), refused the credentials, failed TLS, or speaks TLS to an
     *     {@code http://} URL
     * @throws RegistryUnavailableException no URL answered within the retries
     */
    public void probe() {
        probe(true);
    }

    /**
     * As {@link #probe()}, but without waiting for a registry that cannot be reached: one attempt per
     * URL, and a URL that gives no answer is logged, not retried. For a host that must not block long
     * where it starts, such as a Connect task's {@code configure}.
     *
     * @throws RegistryMisconfiguredException as for {@link #probe()}
     */
    public void probeOnce() {
        probe(false);
    }

    private void probe(boolean waitForOne) {
        ensureOpen();
        String purpose = "schema id 0 (the start-up check)";
        String path = "/schemas/ids/0";
        long start = System.nanoTime();
        long deadline = start + settings.retryTimeout().toNanos();
        Map<String, String> unreachable = new LinkedHashMap<>();
        for (RegistryTransport.Endpoint endpoint : transport.endpoints()) {
            try {
                checkProbe(
                        transport.attempt(endpoint, "GET", path, null, purpose, deadline - System.nanoTime()), purpose);
            } catch (RegistryTransport.TransientFailure e) {
                unreachable.put(endpoint.base(), e.description);
            }
        }
        if (unreachable.size() == transport.endpoints().size() && waitForOne) {
            // None answered yet: wait for one as a lookup would, within what is left of the budget.
            checkProbe(transport.exchange("GET", path, null, purpose, start), purpose);
        } else if (!unreachable.isEmpty()) {
            LOG.warn(
                    "Schema Registry: the start-up check could not reach {}{}",
                    RegistryTransport.summary(unreachable),
                    unreachable.size() == transport.endpoints().size()
                            ? "; lookups will retry"
                            : "; the other URLs answered");
        }
    }

    private static void checkProbe(RegistryTransport.Reply reply, String purpose) {
        ErrorBody error = ErrorBody.of(reply.body());
        if (reply.status() == 200) {
            json(reply, purpose);
        } else if (reply.status() == 404 && error.isConfluentError(SCHEMA_NOT_FOUND)) {
            return;
        } else if (reply.status() == 403 && error.errorCode().isPresent()) {
            // A registry that took the credentials but keeps id 0 from them: the URL and the
            // credentials are right; whether they may read the ids in use shows at the first lookup.
            LOG.warn("Schema Registry: {}", answered(reply, purpose));
        } else if (reply.status() == 401 || reply.status() == 403) {
            throw unexpected(reply, purpose);
        } else {
            throw new RegistryMisconfiguredException(answered(reply, purpose)
                    + ", not Confluent's \"schema not found\" (HTTP 404, error code " + SCHEMA_NOT_FOUND
                    + "); is schema.registry.url a Confluent-compatible Schema Registry API, path included"
                    + " (for example /apis/ccompat/v7 on Apicurio Registry)?");
        }
    }

    private Schema fetch(int id) {
        // One deadline for the id and everything it references, retries included.
        long start = System.nanoTime();
        SchemaReferences.Answer answer = fetchAnswer(id, start);
        if (!answer.isAvro()) {
            throw new NotAvroSchemaException(id, answer.schemaType());
        }
        int[] asked = {0};
        return SchemaReferences.resolve(id, answer, reference -> {
            asked[0]++;
            return fetchReference(id, reference, start, asked[0]);
        });
    }

    private ProtobufSchemaText fetchProtobuf(int id) {
        long start = System.nanoTime();
        SchemaReferences.Answer answer = fetchAnswer(id, start);
        if (!answer.isProtobuf()) {
            throw new NotProtobufSchemaException(id, answer.schemaType());
        }
        int[] asked = {0};
        return SchemaReferences.protobuf(id, answer, reference -> {
            asked[0]++;
            return fetchReference(id, reference, start, asked[0]);
        });
    }

    /** The registry's answer for a schema id, whatever its type. */
    private SchemaReferences.Answer fetchAnswer(int id, long start) {
        String purpose = "schema id " + id;
        RegistryTransport.Reply reply = transport.exchange("GET", "/schemas/ids/" + id, null, purpose, start);
        if (reply.status() == 404 && ErrorBody.of(reply.body()).isConfluentError(SCHEMA_NOT_FOUND)) {
            throw new UnknownSchemaException(
                    id,
                    "The Schema Registry at " + reply.endpoint().base() + " has no schema with id " + id + " ("
                            + ErrorBody.of(reply.body()).describe(404) + ")");
        }
        if (reply.status() != 200) {
            throw unexpected(reply, purpose);
        }
        return answer(reply, purpose);
    }

    /** The answer for a subject version that schema id {@code id} references. */
    private SchemaReferences.Answer fetchReference(
            int id, SchemaReferences.Reference reference, long start, int asked) {
        long budget = settings.retryTimeout().toNanos();
        // A budget of 0 means one attempt per request, so only a positive one bounds the lookup.
        if (budget > 0 && System.nanoTime() - start >= budget) {
            throw new RegistryUnavailableException("Schema Registry: looking up schema id " + id
                    + " and the schemas it references took longer than sanitiser.registry.retry.timeout.ms="
                    + settings.retryTimeout().toMillis() + " (" + asked + " referenced schemas asked for); not a"
                    + " verdict on the record");
        }
        String version = reference.versionSegment();
        String purpose = reference.describe() + ", referenced by schema id " + id;
        RegistryTransport.Reply reply = transport.exchange(
                "GET",
                "/subjects/" + pathSegment(reference.subject()) + "/versions/" + pathSegment(version),
                null,
                purpose,
                start);
        if (reply.status() == 404
                && ErrorBody.of(reply.body()).isConfluentError(SUBJECT_NOT_FOUND, VERSION_NOT_FOUND)) {
            throw new UnknownSchemaException(
                    id,
                    "Schema id " + id + " references " + ErrorBody.quote(reference.name()) + " in "
                            + reference.describe() + ", which the Schema Registry at "
                            + reply.endpoint().base()
                            + " does not have (" + ErrorBody.of(reply.body()).describe(404) + ")");
        }
        if (reply.status() != 200) {
            throw unexpected(reply, purpose);
        }
        return answer(reply, purpose);
    }

    /**
     * A schema answer's type, text and references.
     *
     * @throws RegistryMisconfiguredException the answer is not one a Confluent registry gives
     */
    static SchemaReferences.Answer answer(RegistryTransport.Reply reply, String purpose) {
        JsonNode answer = json(reply, purpose);
        return new SchemaReferences.Answer(
                schemaType(answer), text(answer, "schema", reply, purpose), references(answer, reply, purpose));
    }

    private static String schemaType(JsonNode answer) {
        JsonNode type = answer.path("schemaType");
        return type.isTextual() && !type.asText().isEmpty() ? type.asText().toUpperCase(Locale.ROOT) : AVRO;
    }

    private static List<SchemaReferences.Reference> references(
            JsonNode answer, RegistryTransport.Reply reply, String purpose) {
        JsonNode references = answer.path("references");
        if (references.isMissingNode() || references.isNull()) {
            return List.of();
        }
        if (!references.isArray()) {
            throw notConfluent(reply, purpose, "\"references\" is not an array");
        }
        List<SchemaReferences.Reference> list = new ArrayList<>();
        for (JsonNode reference : references) {
            if (!reference.path("subject").isTextual()
                    || !reference.path("version").canConvertToInt()) {
                throw notConfluent(
                        reply,
                        purpose,
                        "a reference without subject or version: " + ErrorBody.quote(reference.toString()));
            }
            list.add(new SchemaReferences.Reference(
                    reference.path("name").asText(),
                    reference.get("subject").asText(),
                    reference.get("version").intValue()));
        }
        return list;
    }

    private static String text(JsonNode answer, String field, RegistryTransport.Reply reply, String purpose) {
        JsonNode value = answer.path(field);
        if (!value.isTextual()) {
            throw notConfluent(reply, purpose, "no \"" + field + "\" string");
        }
        return value.asText();
    }

    private static JsonNode json(RegistryTransport.Reply reply, String purpose) {
        try {
            JsonNode answer = JSON.readTree(reply.body());
            if (answer == null || !answer.isObject()) {
                throw notConfluent(reply, purpose, "not a JSON object");
            }
            return answer;
        } catch (IOException e) {
            throw notConfluent(reply, purpose, "not JSON");
        }
    }

    private static RegistryMisconfiguredException notConfluent(
            RegistryTransport.Reply reply, String purpose, String what) {
        return new RegistryMisconfiguredException(
                "The Schema Registry at " + reply.endpoint().base() + " answered "
                        + purpose + " with something that is not a Confluent Schema Registry answer (" + what
                        + "); is schema.registry.url right?");
    }

    /**
     * An answer that is neither the one asked for nor a verdict. Refused credentials and a 404 here
     * (a web page, an empty body, another error code: the URL has no registry API behind it) are
     * configuration mistakes.
     */
    private static RegistryUnavailableException unexpected(RegistryTransport.Reply reply, String purpose) {
        if (reply.status() == 401 || reply.status() == 403) {
            return new RegistryMisconfiguredException(
                    RegistryTransport.authMessage(reply.endpoint(), reply.status(), reply.body(), purpose));
        }
        if (reply.status() == 404) {
            return new RegistryMisconfiguredException(answered(reply, purpose)
                    + ", which is not Confluent's \"not found\" answer; is schema.registry.url the registry's API,"
                    + " path included (for example /apis/ccompat/v7 on Apicurio Registry)? Not a verdict on the"
                    + " record: processing stops until the configuration is fixed");
        }
        return new RegistryUnavailableException(
                "The Schema Registry at " + reply.endpoint().base() + " refused " + purpose + ": "
                        + ErrorBody.of(reply.body()).describe(reply.status()));
    }

    /** {@code The Schema Registry at URL answered schema id 7 (GET URL/schemas/ids/7) with HTTP 404: ...}. */
    private static String answered(RegistryTransport.Reply reply, String purpose) {
        return "The Schema Registry at " + reply.endpoint().base() + " answered " + purpose + " (" + reply.method()
                + " " + reply.uri() + ") with " + ErrorBody.of(reply.body()).describe(reply.status());
    }

    private static String pathSegment(String text) {
        return URLEncoder.encode(text, UTF_8).replace("+", "%20");
    }
}
