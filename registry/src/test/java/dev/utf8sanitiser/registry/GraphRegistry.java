package dev.utf8sanitiser.registry;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLDecoder;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A fake registry whose schemas are computed, not stored, so that a test can serve a reference
 * graph of any shape and size: schema id 1 and every subject version are what {@link Graph} says.
 * A subject version it has no node for gets Confluent's "subject not found".
 */
final class GraphRegistry {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One schema: its text and the subjects (version 1) it references. */
    record Node(String schema, List<String> references) {}

    /** The schema of id 1 ({@code subject} empty), or of a subject's version 1. */
    @FunctionalInterface
    interface Graph extends Function<String, Optional<Node>> {}

    private GraphRegistry() {}

    /** A server answering {@code GET /schemas/ids/1} and {@code GET /subjects/S/versions/1} from {@code graph}. */
    static ScriptedServer serve(Graph graph, long delayMillis) {
        return ScriptedServer.start(exchange -> {
            if (delayMillis > 0) {
                try {
                    Thread.sleep(delayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            String path = exchange.getRequestURI().getRawPath();
            Optional<Node> node = Optional.empty();
            if (path.equals("/schemas/ids/1")) {
                node = graph.apply("");
            } else if (path.startsWith("/subjects/") && path.endsWith("/versions/1")) {
                String subject = path.substring("/subjects/".length(), path.length() - "/versions/1".length());
                node = graph.apply(URLDecoder.decode(subject, UTF_8));
            }
            if (node.isEmpty()) {
                ScriptedServer.send(
                        exchange, 404, "{\"error_code\":40401,\"message\":\"Subject not found.\"}".getBytes(UTF_8));
                return;
            }
            ScriptedServer.send(exchange, 200, answer(node.get()).getBytes(UTF_8));
        });
    }

    static String answer(Node node) {
        ObjectNode answer = JSON.createObjectNode();
        answer.put("schema", node.schema());
        if (!node.references().isEmpty()) {
            ArrayNode references = answer.putArray("references");
            for (String subject : node.references()) {
                references
                        .addObject()
                        .put("name", subject)
                        .put("subject", subject)
                        .put("version", 1);
            }
        }
        return answer.toString();
    }

    /**
     * A record named {@code name} with one optional field for each named type it uses, the last
     * field a string: a schema that needs each of {@code uses} to be defined first.
     */
    static String record(String name, List<String> uses) {
        ObjectNode record = JSON.createObjectNode().put("type", "record").put("name", name);
        ArrayNode fields = record.putArray("fields");
        for (int i = 0; i < uses.size(); i++) {
            ArrayNode union = fields.addObject().put("name", "f" + i).putArray("type");
            union.add("null").add(uses.get(i));
        }
        fields.addObject().put("name", "text").put("type", "string");
        return record.toString();
    }
}
