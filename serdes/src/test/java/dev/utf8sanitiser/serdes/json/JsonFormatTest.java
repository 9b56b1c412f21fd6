package dev.utf8sanitiser.serdes.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class JsonFormatTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Decision<RecordParts> decide(Policy policy, boolean surrogates, byte[] value) {
        return new RecordSanitiser(policy, ContentPolicy.none(), new JsonFormat(surrogates), false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    private static Decision.DeadLetter rejected(byte[] value) {
        Decision<RecordParts> decision = decide(Policy.STRICT, true, value);
        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        return (Decision.DeadLetter<?>) decision;
    }

    @Test
    void passesWellFormedJson() {
        byte[] value = utf8("{\"name\":\"Zoë\",\"tags\":[\"東京\",\"😀\"],\"n\":1.5e3,\"ok\":true,\"x\":null}");
        assertThat(decide(Policy.STRICT, true, value)).isInstanceOf(Decision.Pass.class);
    }

    @Test
    void namesTheFieldOfAnIllFormedString() {
        byte[] value = bytes("{\"customer\":{\"id\":7,\"name\":\"a", 0xED, 0xA0, 0x80, "b\"}}");

        Decision.DeadLetter dead = rejected(value);

        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.SURROGATE);
        assertThat(dead.first().field()).contains("customer.name");
        assertThat(dead.first().offset()).isEqualTo(indexOf(value, 0xED));
        assertThat(dead.errors()).isEqualTo(3); // ED, A0, 80: three maximal subparts
    }

    @Test
    void namesArrayIndexesAndKeys() {
        byte[] inArray =
                bytes("{\"lines\":[{\"sku\":\"a\"},{\"sku\":\"a\"},{\"sku\":\"a\"},{\"sku\":\"", 0xC0, 0xAF, "\"}]}");
        assertThat(rejected(inArray).first().field()).contains("lines[3].sku");
        assertThat(rejected(inArray).first().rule()).isEqualTo(DeadLetterRule.NON_SHORTEST_FORM);

        byte[] inKey = bytes("{\"customer\":{\"na", 0xFF, "me\":\"x\"}}");
        assertThat(rejected(inKey).first().field()).contains("customer{}");

        byte[] topLevel = bytes("\"caf", 0xE9, "\"");
        assertThat(rejected(topLevel).first().field()).isEmpty();
    }

    @Test
    void rejectsWhatIsNotJsonUnderEveryPolicy() {
        for (Policy policy : Policy.values()) {
            for (String text : List.of("", "  ", "{\"a\":}", "{} {}", "{\"a\":1", "[1,]", "{'a':1}", "NaN")) {
                Decision<RecordParts> decision = decide(policy, false, utf8(text));
                assertThat(decision).as("%s under %s", text, policy).isInstanceOf(Decision.DeadLetter.class);
                assertThat(((Decision.DeadLetter<?>) decision).first().rule()).isEqualTo(DeadLetterRule.INVALID_JSON);
            }
        }
        // An ill-formed byte outside any string cannot be JSON.
        Decision.DeadLetter outside =
                (Decision.DeadLetter<?>) decide(Policy.REPLACE, false, bytes("{\"a\":1", 0xFF, "}"));
        assertThat(outside.first().rule()).isEqualTo(DeadLetterRule.INVALID_JSON);
        assertThat(outside.first().offset()).isEqualTo(6);
        // A raw control character in a string is not JSON either (RFC 8259 section 7).
        assertThat(rejected(bytes("{\"a\":\"x", 0x01, "\"}")).first().rule()).isEqualTo(DeadLetterRule.INVALID_JSON);
    }

    @Test
    void namesWhereTheDocumentStopsBeingJson() {
        Decision.DeadLetter dead = rejected(utf8("{\"a\":{\"b\":[1,2,}}"));
        assertThat(dead.first().offset()).isEqualTo(15);
        assertThat(dead.first().field()).contains("a.b[2]"); // where the third item would be
    }

    @Test
    void replacesInsideStringsAndTheDocumentStillParses() throws Exception {
        byte[] value = bytes("{\"a\":\"x", 0xF0, 0x9F, "y\",\"b\":[\"", 0xC0, 0x80, "\"]}");

        Decision.Changed<RecordParts> changed = (Decision.Changed<RecordParts>) decide(Policy.REPLACE, false, value);

        JsonNode tree = MAPPER.readTree(changed.fixed().value());
        assertThat(tree.get("a").asText()).isEqualTo("x\uFFFDy");
        assertThat(tree.get("b").get(0).asText()).isEqualTo("\uFFFD\uFFFD");
        assertThat(changed.outcome().label()).isEqualTo("replaced");
    }

    @Test
    void repairsModifiedUtf8NulAsAnEscapeAndCesu8AsUtf8() throws Exception {
        byte[] value = bytes("{\"a\":\"x", 0xC0, 0x80, "y\",\"b\":\"", 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, "\"}");

        Decision.Changed<RecordParts> changed = (Decision.Changed<RecordParts>) decide(Policy.REPAIR, false, value);

        assertThat(new String(changed.fixed().value(), StandardCharsets.UTF_8))
                .isEqualTo("{\"a\":\"x\\u0000y\",\"b\":\"😀\"}");
        JsonNode tree = MAPPER.readTree(changed.fixed().value());
        assertThat(tree.get("a").asText()).isEqualTo("x\u0000y");
        assertThat(changed.outcome().label()).isEqualTo("repaired");
    }

    @Test
    void loneSurrogateEscapesAreIllFormedWhenChecked() throws Exception {
        byte[] value = utf8("{\"ok\":\"\\uD83D\\uDE00\",\"bad\":[\"a\\uD800b\",\"\\uDC00\"]}");

        assertThat(decide(Policy.STRICT, false, value)).isInstanceOf(Decision.Pass.class);

        Decision.DeadLetter dead = rejected(value);
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.LONE_SURROGATE_ESCAPE);
        assertThat(dead.first().field()).contains("bad[0]");
        assertThat(dead.first().offset()).isEqualTo(new String(value, StandardCharsets.UTF_8).indexOf("\\uD800"));
        assertThat(dead.first().length()).isEqualTo(6);
        assertThat(dead.errors()).isEqualTo(2);

        Decision.Changed<RecordParts> changed = (Decision.Changed<RecordParts>) decide(Policy.REPLACE, true, value);
        JsonNode tree = MAPPER.readTree(changed.fixed().value());
        assertThat(tree.get("ok").asText()).isEqualTo("😀");
        assertThat(tree.get("bad").get(0).asText()).isEqualTo("a\uFFFDb");
        assertThat(tree.get("bad").get(1).asText()).isEqualTo("\uFFFD");
    }

    @Test
    void jacksonItselfReadsAnOverlongSlashWithoutAWord() throws Exception {
        // Why JSON needs this check: Jackson's own UTF-8 parser refuses surrogates, but decodes the
        // non-shortest form C0 AF into '/', the classic way past a path filter.
        byte[] value = bytes("{\"path\":\"..", 0xC0, 0xAF, "etc\"}");
        assertThat(MAPPER.readTree(value).get("path").asText()).isEqualTo("../etc");
        assertThat(rejected(value).first().rule()).isEqualTo(DeadLetterRule.NON_SHORTEST_FORM);
    }

    @Test
    void contentRulesSeeTheDocumentWithFieldPaths() {
        byte[] value = utf8("{\"a\":\"ok\",\"b\":{\"c\":\"x\u0085y\"}}");
        Decision<RecordParts> decision = new RecordSanitiser(
                        Policy.STRICT,
                        ContentPolicy.of(ContentRules.parse("C1_CONTROL:reject")),
                        new JsonFormat(false),
                        false,
                        List.of())
                .decide(null, value, new RecordHeaders());

        Decision.DeadLetter dead = (Decision.DeadLetter<?>) decision;
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.C1_CONTROL);
        assertThat(dead.first().field()).contains("b.c");
    }

    /**
     * Random documents written by Jackson, with random bytes spliced into one string: the verdict's
     * rule and offset are the core's for the whole document, and the field is that string's path.
     */
    @Property(tries = 500)
    void findsTheFieldOfDamageAnywhereInARandomDocument(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        List<String> paths = new ArrayList<>();
        JsonNode tree = randomTree(random, "", paths, 0);
        if (paths.isEmpty()) {
            return;
        }
        String target = paths.get(random.nextInt(paths.size()));
        // A control character is escaped by Jackson, so the marker is unique in the document.
        String json = MAPPER.writeValueAsString(replaceAt(tree, target, "\u0001MARK\u0001"));
        byte[] document = utf8(json);
        byte[] escapedMarker = utf8("\\u0001MARK\\u0001");
        int at = indexOf(document, escapedMarker);
        // Bytes 80..FF only, so the damage stays inside the string; a continuation byte first, so
        // it is surely ill-formed.
        byte[] damage = new byte[1 + random.nextInt(4)];
        for (int i = 0; i < damage.length; i++) {
            damage[i] = (byte) (0x80 | random.nextInt(i == 0 ? 64 : 128));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(document, 0, at);
        out.write(damage);
        out.write(document, at + escapedMarker.length, document.length - at - escapedMarker.length);
        byte[] value = out.toByteArray();

        Decision<RecordParts> decision = decide(Policy.STRICT, false, value);

        Utf8Error first = Utf8Validator.firstError(value).orElseThrow();
        Decision.DeadLetter dead = (Decision.DeadLetter<?>) decision;
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.of(first.rule()));
        assertThat(dead.first().offset()).isEqualTo(first.offset());
        assertThat(dead.first().field()).isEqualTo(target.isEmpty() ? Optional.empty() : Optional.of(target));
        assertThat(dead.errors()).isEqualTo(Utf8Validator.errors(value).size());
    }

    /** A random tree; {@code paths} gets the path of every string value. */
    private static JsonNode randomTree(Random random, String path, List<String> paths, int depth) {
        int kind = depth > 3 ? random.nextInt(3) : random.nextInt(5);
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (kind) {
            case 0 -> {
                paths.add(path);
                return f.textNode(List.of("plain", "Grüße", "東京", "a\"q\\b", "").get(random.nextInt(5)));
            }
            case 1 -> {
                return f.numberNode(random.nextInt());
            }
            case 2 -> {
                return random.nextBoolean() ? f.booleanNode(true) : f.nullNode();
            }
            case 3 -> {
                ArrayNode array = f.arrayNode();
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    array.add(randomTree(random, path + "[" + i + "]", paths, depth + 1));
                }
                return array;
            }
            default -> {
                ObjectNode object = f.objectNode();
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    String name = List.of("id", "név", "名前", "a.b", "x").get(random.nextInt(5)) + i;
                    object.set(name, randomTree(random, path.isEmpty() ? name : path + "." + name, paths, depth + 1));
                }
                return object;
            }
        }
    }

    /** {@code tree} with the string at {@code path} replaced by {@code text}. */
    private static JsonNode replaceAt(JsonNode tree, String target, String text) {
        return replace(tree, "", target, text);
    }

    private static JsonNode replace(JsonNode node, String path, String target, String text) {
        if (path.equals(target) && node.isTextual()) {
            return JsonNodeFactory.instance.textNode(text);
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            for (int i = 0; i < node.size(); i++) {
                out.add(replace(node.get(i), path + "[" + i + "]", target, text));
            }
            return out;
        }
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            node.properties()
                    .forEach(e -> out.set(
                            e.getKey(),
                            replace(
                                    e.getValue(),
                                    path.isEmpty() ? e.getKey() : path + "." + e.getKey(),
                                    target,
                                    text)));
            return out;
        }
        return node;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Strings as UTF-8, integers as single bytes. */
    static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String s) {
                out.writeBytes(utf8(s));
            } else {
                out.write((Integer) part);
            }
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] haystack, int b) {
        for (int i = 0; i < haystack.length; i++) {
            if ((haystack[i] & 0xFF) == b) {
                return i;
            }
        }
        return -1;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}
