package dev.utf8sanitiser.serdes.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of the JSON path on documents Jackson writes: the
 * fuzzer chooses a tree of objects, arrays, strings (any Unicode scalar values, so escapes,
 * supplementary characters and raw UTF-8 of every length) and numbers, Jackson writes it as UTF-8,
 * and the sanitiser passes it under every policy, with the surrogate check on.
 */
class JsonFromJacksonFuzzTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int MAX_DEPTH = 24;

    @FuzzTest
    void wellFormedJsonFromJacksonPasses(FuzzedDataProvider data) throws JsonProcessingException {
        byte[] document = MAPPER.writeValueAsBytes(node(data, 0));
        for (Policy policy : Policy.values()) {
            Decision<RecordParts> decision = new RecordSanitiser(
                            policy, ContentPolicy.none(), new JsonFormat(true), false, List.of())
                    .decide(null, document, new RecordHeaders());
            assertThat(decision).as(policy.name()).isInstanceOf(Decision.Pass.class);
        }
    }

    private static JsonNode node(FuzzedDataProvider data, int depth) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        int kind = depth >= MAX_DEPTH ? data.consumeInt(2, 6) : data.consumeInt(0, 6);
        switch (kind) {
            case 0 -> {
                ObjectNode object = nodes.objectNode();
                int fields = data.consumeInt(0, 4);
                for (int i = 0; i < fields; i++) {
                    object.set(text(data), node(data, depth + 1));
                }
                return object;
            }
            case 1 -> {
                ArrayNode array = nodes.arrayNode();
                int items = data.consumeInt(0, 4);
                for (int i = 0; i < items; i++) {
                    array.add(node(data, depth + 1));
                }
                return array;
            }
            case 2 -> {
                return nodes.numberNode(data.consumeLong());
            }
            case 3 -> {
                return nodes.numberNode(data.consumeDouble());
            }
            case 4 -> {
                return data.consumeBoolean() ? nodes.booleanNode(data.consumeBoolean()) : nodes.nullNode();
            }
            default -> {
                return nodes.textNode(text(data));
            }
        }
    }

    /** A string of scalar values: a lone surrogate is not text, and Jackson refuses to write one. */
    private static String text(FuzzedDataProvider data) {
        String chars = data.consumeString(24);
        return new String(chars.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }
}
