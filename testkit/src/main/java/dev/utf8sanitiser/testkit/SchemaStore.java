package dev.utf8sanitiser.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * The schemas of a {@link TestSchemaRegistry}, in memory: ids, subjects and their versions,
 * references, and the answers and errors of Confluent's REST API for them, apart from the HTTP
 * front that serves them (and injects its faults). Thread-safe.
 */
final class SchemaStore {
    static final String AVRO = "AVRO";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SCHEMA_TYPES = List.of(AVRO, "JSON", "PROTOBUF");

    /** A stored schema: what {@code GET /schemas/ids/{id}} returns. */
    private record Stored(int id, String schemaType, String schema, List<SchemaReference> references) {}

    /** A failure to answer a request, turned into a Confluent-style error body by the HTTP front. */
    static final class RegistryError extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;
        final int errorCode;

        RegistryError(int status, int errorCode, String message) {
            super(message, null, false, false);
            this.status = status;
            this.errorCode = errorCode;
        }
    }

    /** Confluent's compatibility levels. */
    static final List<String> LEVELS = List.of(
            "NONE", "BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE");

    private final Object lock = new Object();
    private final List<Stored> byId = new ArrayList<>();
    private final Map<String, List<Integer>> subjects = new TreeMap<>();
    private final Map<String, String> subjectLevels = new TreeMap<>();
    // NONE, where Confluent's default is BACKWARD: a test registry takes what a test registers
    // unless the test (or a client) sets a level, which it then enforces.
    private String globalLevel = "NONE";

    /** The subjects, in order. */
    Set<String> subjectNames() {
        synchronized (lock) {
            return Set.copyOf(subjects.keySet());
        }
    }

    JsonNode schemaById(String idText) throws RegistryError {
        Stored stored = stored(idText);
        ObjectNode answer = JSON.createObjectNode();
        describe(answer, stored);
        return answer;
    }

    private Stored stored(String idText) throws RegistryError {
        int id;
        try {
            id = Integer.parseInt(idText);
        } catch (NumberFormatException e) {
            throw new RegistryError(404, 404, "HTTP 404 Not Found");
        }
        synchronized (lock) {
            if (id < 1 || id > byId.size()) {
                throw new RegistryError(404, 40403, "Schema " + id + " not found");
            }
            return byId.get(id - 1);
        }
    }

    JsonNode subjectVersion(String subject, String versionText) throws RegistryError {
        List<Integer> versions = versionsOf(subject);
        int version;
        if (versionText.equals("latest") || versionText.equals("-1")) {
            version = versions.size();
        } else {
            try {
                version = Integer.parseInt(versionText);
            } catch (NumberFormatException e) {
                version = 0;
            }
            if (version < 1) {
                throw new RegistryError(
                        422,
                        42202,
                        "The specified version '" + versionText + "' is not a valid version id. Allowed values"
                                + " are between [1, 2^31-1] and the string \"latest\"");
            }
            if (version > versions.size()) {
                throw new RegistryError(404, 40402, "Version " + version + " not found.");
            }
        }
        Stored stored;
        synchronized (lock) {
            stored = byId.get(versions.get(version - 1) - 1);
        }
        ObjectNode answer = JSON.createObjectNode();
        answer.put("subject", subject);
        answer.put("version", version);
        answer.put("id", stored.id());
        describe(answer, stored);
        return answer;
    }

    List<Integer> versionsOf(String subject) throws RegistryError {
        synchronized (lock) {
            List<Integer> versions = subjects.get(subject);
            if (versions == null) {
                throw new RegistryError(404, 40401, "Subject '" + subject + "' not found.");
            }
            return List.copyOf(versions);
        }
    }

    private static void describe(ObjectNode answer, Stored stored) {
        if (!stored.schemaType().equals(AVRO)) {
            answer.put("schemaType", stored.schemaType());
        }
        if (!stored.references().isEmpty()) {
            ArrayNode references = answer.putArray("references");
            for (SchemaReference reference : stored.references()) {
                references
                        .addObject()
                        .put("name", reference.name())
                        .put("subject", reference.subject())
                        .put("version", reference.version());
            }
        }
        answer.put("schema", stored.schema());
    }

    int register(String subject, byte[] body) throws RegistryError {
        JsonNode request;
        try {
            request = JSON.readTree(body);
        } catch (IOException e) {
            throw new RegistryError(400, 400, "Request body is not JSON: " + e.getMessage());
        }
        if (request == null || !request.path("schema").isTextual()) {
            throw new RegistryError(422, 42201, "Invalid schema: the request has no \"schema\" string");
        }
        String schemaType = request.path("schemaType").asText(AVRO);
        List<SchemaReference> references = new ArrayList<>();
        for (JsonNode reference : request.path("references")) {
            references.add(new SchemaReference(
                    reference.path("name").asText(),
                    reference.path("subject").asText(),
                    reference.path("version").asInt()));
        }
        return store(subject, schemaType, request.get("schema").asText(), references);
    }

    int store(String subject, String schemaType, String schema, List<SchemaReference> references) throws RegistryError {
        String type = schemaType.toUpperCase(Locale.ROOT);
        if (!SCHEMA_TYPES.contains(type)) {
            throw new RegistryError(422, 42201, "Invalid schema type " + schemaType);
        }
        synchronized (lock) {
            String kept = type.equals(AVRO) ? checkAvro(schema, references) : schema;
            Stored stored = byId.stream()
                    .filter(candidate -> candidate.schemaType().equals(type)
                            && candidate.schema().equals(kept)
                            && candidate.references().equals(references))
                    .findFirst()
                    .orElse(null);
            if (stored == null || !subjects.getOrDefault(subject, List.of()).contains(stored.id())) {
                List<String> incompatible = incompatibilities(subject, type, kept, references, level(subject));
                if (!incompatible.isEmpty()) {
                    throw new RegistryError(
                            409,
                            40901,
                            "Schema being registered is incompatible with an earlier schema for subject \"" + subject
                                    + "\" (" + level(subject) + "): " + String.join("; ", incompatible));
                }
            }
            if (stored == null) {
                stored = new Stored(byId.size() + 1, type, kept, List.copyOf(references));
                byId.add(stored);
            }
            List<Integer> versions = subjects.computeIfAbsent(subject, name -> new ArrayList<>());
            if (!versions.contains(stored.id())) {
                versions.add(stored.id());
            }
            return stored.id();
        }
    }

    /** {@code GET /config[/subject]}: the level in force; a subject without its own is 40408 unless {@code defaultToGlobal}. */
    JsonNode config(String subject, boolean defaultToGlobal) throws RegistryError {
        synchronized (lock) {
            String level = subject == null ? globalLevel : subjectLevels.get(subject);
            if (level == null && !defaultToGlobal) {
                throw new RegistryError(
                        404, 40408, "Subject '" + subject + "' does not have subject-level compatibility configured");
            }
            return JSON.createObjectNode().put("compatibilityLevel", level == null ? globalLevel : level);
        }
    }

    /** {@code PUT /config[/subject]} with {@code {"compatibility": LEVEL}}. */
    JsonNode setConfig(String subject, byte[] body) throws RegistryError {
        String level = json(body).path("compatibility").asText("").toUpperCase(Locale.ROOT);
        if (!LEVELS.contains(level)) {
            throw new RegistryError(422, 42203, "Invalid compatibility level. Valid values are " + LEVELS);
        }
        synchronized (lock) {
            if (subject == null) {
                globalLevel = level;
            } else {
                subjectLevels.put(subject, level);
            }
        }
        return JSON.createObjectNode().put("compatibility", level);
    }

    /** {@code POST /subjects/{subject}}: the version of {@code subject} that is this schema. */
    JsonNode lookup(String subject, byte[] body) throws RegistryError {
        JsonNode request = json(body);
        String type = request.path("schemaType").asText(AVRO).toUpperCase(Locale.ROOT);
        List<SchemaReference> references = references(request);
        String schema = request.path("schema").asText("");
        List<Integer> versions = versionsOf(subject);
        synchronized (lock) {
            String kept = type.equals(AVRO) ? checkAvro(schema, references) : schema;
            for (int v = 0; v < versions.size(); v++) {
                Stored stored = byId.get(versions.get(v) - 1);
                if (stored.schemaType().equals(type) && stored.schema().equals(kept)) {
                    ObjectNode answer = JSON.createObjectNode();
                    answer.put("subject", subject);
                    answer.put("version", v + 1);
                    answer.put("id", stored.id());
                    describe(answer, stored);
                    return answer;
                }
            }
        }
        throw new RegistryError(404, 40403, "Schema not found");
    }

    /** {@code POST /compatibility/subjects/{subject}/versions/{version}}: would this schema be taken? */
    JsonNode compatibility(String subject, String versionText, byte[] body) throws RegistryError {
        JsonNode request = json(body);
        String type = request.path("schemaType").asText(AVRO).toUpperCase(Locale.ROOT);
        List<SchemaReference> references = references(request);
        List<String> incompatible;
        synchronized (lock) {
            String kept = type.equals(AVRO)
                    ? checkAvro(request.path("schema").asText(""), references)
                    : request.path("schema").asText("");
            String level = level(subject);
            if (!subjects.containsKey(subject)) {
                throw new RegistryError(404, 40401, "Subject '" + subject + "' not found.");
            }
            if (!versionText.equals("latest")) {
                subjectVersion(subject, versionText); // 40402 or 42202 for a version that is not there
                level = level.replace("_TRANSITIVE", "");
            }
            incompatible = incompatibilities(subject, type, kept, references, level);
        }
        ObjectNode answer = JSON.createObjectNode().put("is_compatible", incompatible.isEmpty());
        if (!incompatible.isEmpty()) {
            ArrayNode messages = answer.putArray("messages");
            incompatible.forEach(messages::add);
        }
        return answer;
    }

    private String level(String subject) {
        return subjectLevels.getOrDefault(subject, globalLevel);
    }

    /**
     * What keeps an Avro schema from being registered under {@code subject} at {@code level}, by
     * Apache Avro's own reader/writer check: BACKWARD, the new schema reads what the latest wrote;
     * FORWARD, the latest reads what the new writes; FULL, both; _TRANSITIVE, against every version.
     * Other schema types are not checked.
     */
    private List<String> incompatibilities(
            String subject, String type, String schema, List<SchemaReference> references, String level)
            throws RegistryError {
        List<Integer> versions = subjects.getOrDefault(subject, List.of());
        if (level.equals("NONE") || !type.equals(AVRO) || versions.isEmpty()) {
            return List.of();
        }
        Schema candidate = parsed(schema, references);
        List<Integer> against = level.endsWith("_TRANSITIVE") ? versions : List.of(versions.get(versions.size() - 1));
        List<String> problems = new ArrayList<>();
        for (int id : against) {
            Stored earlier = byId.get(id - 1);
            if (!earlier.schemaType().equals(AVRO)) {
                continue;
            }
            Schema old = parsed(earlier.schema(), earlier.references());
            if (!level.startsWith("FORWARD")) {
                check(candidate, old, "the new schema cannot read data written with id " + id, problems);
            }
            if (!level.startsWith("BACKWARD")) {
                check(old, candidate, "schema id " + id + " cannot read data written with the new schema", problems);
            }
        }
        return problems;
    }

    private static void check(Schema reader, Schema writer, String what, List<String> problems) {
        SchemaCompatibility.SchemaPairCompatibility result =
                SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        if (result.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            problems.add(what + " (" + result.getDescription() + ")");
        }
    }

    private Schema parsed(String schema, List<SchemaReference> references) throws RegistryError {
        Schema.Parser parser = new Schema.Parser();
        parseReferences(parser, references, new HashMap<>());
        return parser.parse(schema);
    }

    private static JsonNode json(byte[] body) throws RegistryError {
        try {
            JsonNode request = JSON.readTree(body);
            if (request == null) {
                throw new RegistryError(400, 400, "Request body is empty");
            }
            return request;
        } catch (IOException e) {
            throw new RegistryError(400, 400, "Request body is not JSON: " + e.getMessage());
        }
    }

    private static List<SchemaReference> references(JsonNode request) {
        List<SchemaReference> references = new ArrayList<>();
        for (JsonNode reference : request.path("references")) {
            references.add(new SchemaReference(
                    reference.path("name").asText(),
                    reference.path("subject").asText(),
                    reference.path("version").asInt()));
        }
        return references;
    }

    /** The form in which an Avro schema is kept, once Apache Avro has parsed it with its references. */
    private String checkAvro(String schema, List<SchemaReference> references) throws RegistryError {
        Schema.Parser parser = new Schema.Parser();
        parseReferences(parser, references, new HashMap<>());
        try {
            Schema parsed = parser.parse(schema);
            return references.isEmpty() ? parsed.toString() : schema;
        } catch (AvroRuntimeException e) {
            throw new RegistryError(422, 42201, "Invalid schema: " + e.getMessage());
        }
    }

    private void parseReferences(Schema.Parser parser, List<SchemaReference> references, Map<String, Boolean> parsed)
            throws RegistryError {
        for (SchemaReference reference : references) {
            String key = reference.subject() + "/" + reference.version();
            if (parsed.containsKey(key)) {
                continue;
            }
            List<Integer> versions = subjects.get(reference.subject());
            if (versions == null || reference.version() < 1 || reference.version() > versions.size()) {
                throw new RegistryError(
                        422,
                        42201,
                        "Invalid schema: reference " + reference.name() + " names subject " + reference.subject()
                                + " version " + reference.version() + ", which does not exist");
            }
            Stored target = byId.get(versions.get(reference.version() - 1) - 1);
            parseReferences(parser, target.references(), parsed);
            parsed.put(key, true);
            try {
                parser.parse(target.schema());
            } catch (AvroRuntimeException e) {
                throw new RegistryError(422, 42201, "Invalid schema: reference " + reference.name() + ": " + e);
            }
        }
    }
}
