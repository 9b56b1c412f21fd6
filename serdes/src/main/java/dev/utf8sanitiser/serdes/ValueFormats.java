package dev.utf8sanitiser.serdes;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.serdes.avro.AvroFormat;
import dev.utf8sanitiser.serdes.json.JsonFormat;
import dev.utf8sanitiser.serdes.protobuf.ProtobufFormat;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import java.util.function.Supplier;

/** The one place that turns a configuration into a {@link RecordSanitiser}, for every host. */
public final class ValueFormats {
    private ValueFormats() {}

    /**
     * The value format {@code sanitiser.payload.format} names.
     *
     * @param registry asked for {@code avro} and {@code protobuf}, and for {@code json} when {@code schema.registry.url}
     *     is set (to check the schema id of Confluent-framed values); the caller owns (and closes)
     *     what it supplies
     */
    public static ValueFormat of(SanitiserConfig config, Supplier<SchemaRegistry> registry) {
        return switch (config.payloadFormat()) {
            case TEXT -> ValueFormat.TEXT;
            case JSON ->
                new JsonFormat(
                        config.jsonSurrogateEscapes(),
                        config.schemaRegistryUrl().map(url -> registry));
            case AVRO -> new AvroFormat(registry.get());
            case PROTOBUF -> new ProtobufFormat(registry.get(), config.protobufCheckAllStrings());
        };
    }

    /** The record sanitiser the configuration describes, reading values with {@code format}. */
    public static RecordSanitiser sanitiser(SanitiserConfig config, ValueFormat format) {
        return sanitiser(config, format, config.policy());
    }

    /** As the configuration describes, but under {@code policy}: what a replay under another policy needs. */
    public static RecordSanitiser sanitiser(SanitiserConfig config, ValueFormat format, Policy policy) {
        return new RecordSanitiser(
                policy,
                ContentPolicy.of(config.contentRules(), config.normalisation()),
                format,
                config.checkKey(),
                config.checkHeaders());
    }
}
