package dev.utf8sanitiser.registry;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of reference resolution against a fake registry
 * whose answers the input decides: chains past the depth limit, cycles, self-references, diamonds
 * and fan-out, lists past the count limit, references to subjects or versions that do not exist,
 * schemas that are not Avro or that Avro cannot read, and answers that are not Confluent's JSON.
 * Whatever the graph, the lookup ends with a schema or a documented exception, never anything
 * else (a stack overflow, a runtime exception of Avro's or Jackson's); it asks for each subject
 * version at most once and for at most {@link SchemaReferences#MAX_REFERENCES} in all; and a schema
 * it returns is the one an independent recursive resolution of the (then acyclic, shallow enough)
 * graph gives.
 */
class SchemaReferencesFuzzTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RegistryTransport.Endpoint FAKE =
            new RegistryTransport.Endpoint("http://fake", Optional.empty(), "");

    /** One subject's version 1 (also asked for as {@code latest}): its body and, if sound, its parts. */
    private record Node(byte[] body, String name, List<String> references, boolean avro) {}

    @FuzzTest
    void everyGraphEndsInASchemaOrAVerdict(FuzzedDataProvider data) {
        Map<String, Node> graph = new HashMap<>();
        // Mostly small graphs; a few long chains to reach the depth limit (the count limit is
        // SchemaReferencesTest's: Avro parses a thousand schemas too slowly for a fuzzer).
        int size =
                switch (data.consumeInt(0, 7)) {
                    case 0 -> data.consumeInt(60, 140);
                    case 1 -> data.consumeInt(60, 200);
                    default -> data.consumeInt(1, 12);
                };
        boolean chained = data.consumeBoolean();
        for (int i = 0; i < size; i++) {
            List<String> references = new ArrayList<>();
            if (chained && i + 1 < size) {
                references.add("s" + (i + 1));
            }
            // in the larger graphs, the first schema fans out to many of the others
            int more = i == 0 && size >= 60 ? data.consumeInt(0, size) : data.consumeInt(0, 3);
            for (int r = 0; r < more; r++) {
                int target = data.consumeInt(0, size + 1);
                // one past the last is a subject the registry does not have
                references.add(target == size + 1 ? "missing" : "s" + Math.min(target, size - 1));
            }
            graph.put("s" + i, node(data, "N" + i, references));
        }
        Node top = node(data, "Top", data.consumeBoolean() ? List.of("s0") : List.of("s0", "s" + (size - 1)));

        Map<SchemaReferences.Key, Integer> asked = new HashMap<>();
        SchemaReferences.Source source = reference -> {
            asked.merge(reference.key(), 1, Integer::sum);
            Node node = graph.get(reference.subject());
            if (node == null || (reference.version() != 1 && reference.version() != -1)) {
                throw new UnknownSchemaException(1, "no such subject version");
            }
            return RestSchemaRegistry.answer(reply(node.body()), "a reference");
        };

        Optional<Schema> resolved;
        try {
            SchemaReferences.Answer answer = RestSchemaRegistry.answer(reply(top.body()), "schema id 1");
            resolved = answer.isAvro() ? Optional.of(SchemaReferences.resolve(1, answer, source)) : Optional.empty();
        } catch (UnusableSchemaException | UnknownSchemaException | RegistryMisconfiguredException e) {
            resolved = Optional.empty();
        }

        assertThat(asked.values()).as("each subject version asked for once").allMatch(count -> count == 1);
        assertThat(asked).size().isLessThanOrEqualTo(SchemaReferences.MAX_REFERENCES);
        if (resolved.isPresent()) {
            Schema.Parser parser = new Schema.Parser();
            parser.setValidateDefaults(false);
            Set<String> done = new HashSet<>();
            for (String reference : top.references()) {
                naive(graph, reference, parser, done, new HashSet<>(), 1);
            }
            assertThat(done).size().isLessThanOrEqualTo(SchemaReferences.MAX_REFERENCES);
            assertThat(resolved.get().toString())
                    .isEqualTo(parser.parse(schemaOf(top)).toString());
        }
    }

    /** The oracle: what the graph resolves to, by plain recursion; it must be acyclic and shallow. */
    private static void naive(
            Map<String, Node> graph,
            String subject,
            Schema.Parser parser,
            Set<String> done,
            Set<String> path,
            int depth) {
        if (done.contains(subject)) {
            return;
        }
        assertThat(path).as("a cycle resolved").doesNotContain(subject);
        assertThat(depth).as("deeper than the limit").isLessThanOrEqualTo(SchemaReferences.MAX_DEPTH);
        Node node = graph.get(subject);
        assertThat(node).as("a missing subject resolved").isNotNull();
        assertThat(node.avro())
                .as("a reference to a schema that is not Avro resolved")
                .isTrue();
        path.add(subject);
        for (String reference : node.references()) {
            naive(graph, reference, parser, done, path, depth + 1);
        }
        path.remove(subject);
        parser.parse(schemaOf(node));
        done.add(subject);
    }

    private static String schemaOf(Node node) {
        try {
            return JSON.readTree(node.body()).get("schema").asText();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A registry's answer for a schema named {@code name} that references {@code references}, or garbage. */
    private static Node node(FuzzedDataProvider data, String name, List<String> references) {
        int kind = data.consumeInt(0, 15);
        if (kind == 0) {
            // not Confluent's JSON at all
            return new Node(data.consumeBytes(data.consumeInt(0, 40)), name, references, false);
        }
        ObjectNode answer = JSON.createObjectNode();
        String schema =
                switch (kind) {
                    case 1 -> data.consumeString(40); // not a schema
                    case 2 -> GraphRegistry.record("N0", List.of()); // a name defined twice
                    default ->
                        GraphRegistry.record(
                                name,
                                references.stream()
                                        .filter(subject -> !subject.equals("missing"))
                                        .map(subject -> "N" + subject.substring(1))
                                        .distinct()
                                        .toList());
                };
        answer.put("schema", schema);
        boolean avro = true;
        if (kind == 3) {
            answer.put("schemaType", data.pickValue(new String[] {"JSON", "PROTOBUF", "avro", ""}));
            avro = answer.get("schemaType").asText().equalsIgnoreCase("avro")
                    || answer.get("schemaType").asText().isEmpty();
        }
        if (kind == 4) {
            answer.put("references", "not an array");
        } else if (!references.isEmpty()) {
            ArrayNode list = answer.putArray("references");
            for (String subject : references) {
                list.addObject()
                        .put("name", subject)
                        .put("subject", subject)
                        .put("version", data.consumeBoolean() ? 1 : data.pickValue(new int[] {-1, 1, 2}));
            }
        }
        return new Node(answer.toString().getBytes(UTF_8), name, references, avro);
    }

    private static RegistryTransport.Reply reply(byte[] body) {
        return new RegistryTransport.Reply(FAKE, "GET", URI.create("http://fake/"), 200, body);
    }
}
