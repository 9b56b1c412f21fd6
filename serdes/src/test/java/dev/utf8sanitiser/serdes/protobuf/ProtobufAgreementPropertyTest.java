package dev.utf8sanitiser.serdes.protobuf;

import com.google.protobuf.DynamicMessage;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Over random proto3 schemas and messages (protobuf-java's {@code DynamicMessage} writes them, then
 * some string bytes are made ill-formed), the sanitiser dead-letters a record under strict exactly
 * when {@code DynamicMessage.parseFrom} refuses it, and under replace writes back a message that
 * protobuf-java parses, each string the core's replacement of the bytes it held.
 */
class ProtobufAgreementPropertyTest {

    @Property(tries = 400)
    void agreesWithProtobufJava(@ForAll long seed) {
        Random random = new Random(seed);
        RandomProto.Schema schema = RandomProto.schema(random);
        ProtobufFormat format = new ProtobufFormat(id -> schema.type().getFile(), false);
        DynamicMessage message = RandomProto.message(random, schema.type(), 0);
        byte[] bytes = RandomProto.corrupt(random, message.toByteArray());
        RandomProto.assertAgrees(format, 1, schema, bytes);
    }
}
