package dev.utf8sanitiser.serdes.protobuf;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of the Protobuf walk, against protobuf-java's
 * {@code DynamicMessage.parseFrom} as the oracle: the input's own bytes as a message of a rich
 * proto3 schema (nested and recursive types, maps, packed fields, oneofs), and the input as a seed
 * for a random schema and message whose strings are then corrupted. Every record is passed, fixed
 * or dead-lettered under a documented rule, nothing thrown; under strict it passes exactly when
 * protobuf-java parses it; a fixed one parses, each string the core's replacement of its bytes.
 */
class ProtobufFormatFuzzTest {
    private static final Descriptor ORDER =
            ProtobufData.file(ProtobufData.ORDERS).findMessageTypeByName("Order");
    private static final RandomProto.Schema ORDERS = twinOf();
    private static final Set<DeadLetterRule> RULES = Stream.concat(
                    Arrays.stream(Rule.values()).map(DeadLetterRule::of), Stream.of(DeadLetterRule.MALFORMED_PROTOBUF))
            .collect(Collectors.toUnmodifiableSet());

    @FuzzTest
    void theWalkAgreesWithProtobufJava(byte[] input) {
        ProtobufFormat orders = new ProtobufFormat(id -> ORDER.getFile(), false);
        for (Policy policy : Policy.values()) {
            Decision<RecordParts> decision = RandomProto.decide(orders, policy, RandomProto.framed(1, input));
            if (decision instanceof Decision.DeadLetter<?> dead) {
                assertThat(dead.rule()).isIn(RULES);
            }
        }
        RandomProto.assertAgrees(orders, 1, ORDERS, input);

        if (input.length >= 8) {
            Random random = new Random(ByteBuffer.wrap(input).getLong());
            RandomProto.Schema schema = RandomProto.schema(random);
            DynamicMessage message = RandomProto.message(random, schema.type(), 0);
            byte[] bytes = RandomProto.corrupt(random, message.toByteArray());
            RandomProto.assertAgrees(new ProtobufFormat(id -> schema.type().getFile(), false), 1, schema, bytes);
        }
    }

    /** The orders schema and its twin with strings as bytes, for the oracle. */
    private static RandomProto.Schema twinOf() {
        return new RandomProto.Schema(ORDER, RandomProto.twinOf(ORDER));
    }
}
