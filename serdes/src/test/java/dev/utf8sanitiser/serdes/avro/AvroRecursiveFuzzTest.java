package dev.utf8sanitiser.serdes.avro;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.apache.avro.Schema;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of the Avro walker under a recursive schema (a
 * tree: a record that holds itself through a union, an array and a map), where depth is what the
 * input decides: the walker agrees with Avro's own reader ({@link AvroAgreement}) and throws
 * nothing but {@link MalformedAvroException}, and its fast scan agrees with the walker ({@link
 * StringScanTest#agree}).
 */
class AvroRecursiveFuzzTest {
    static final Schema TREE = new Schema.Parser()
            .parse(
                    """
                    {"type": "record", "name": "Tree", "fields": [
                      {"name": "label", "type": "string"},
                      {"name": "flag", "type": "boolean"},
                      {"name": "next", "type": ["null", "Tree"]},
                      {"name": "children", "type": {"type": "array", "items": "Tree"}},
                      {"name": "named", "type": {"type": "map", "values": ["null", "string", "Tree"]}}
                    ]}
                    """);
    private static final SchemaWalker WALKER = SchemaWalker.of(TREE);

    @FuzzTest
    void walkerAgreesWithAvroAtAnyDepth(byte[] input) {
        AvroAgreement.agree(TREE, WALKER, input);
        StringScanTest.agree(TREE, WALKER, input);
    }
}
