package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.registry.SchemaRegistryException;
import dev.utf8sanitiser.registry.UnknownSchemaException;
import dev.utf8sanitiser.registry.UnusableSchemaException;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The first step of every format framed for a Schema Registry: the Confluent prefix, then the
 * schema its id names. The verdicts are the same for every format but the one that says a value is
 * not of the format ({@code NOT_AVRO}, {@code NOT_PROTOBUF}), which each format names with the
 * exception its registry call throws for a schema of another type. An unusable schema's verdict
 * ends with the registry's reason.
 */
public final class RegisteredSchema {
    private RegisteredSchema() {}

    /**
     * The schema of a framed value, or empty once the value is rejected: {@code notThisFormat} when
     * it has no prefix or its id names a schema of another type ({@code otherType}), {@code
     * UNKNOWN_SCHEMA} or {@code UNUSABLE_SCHEMA} as the registry answers. Any other failure, the
     * registry not answering included, goes to the caller.
     */
    public static <S> Optional<S> lookup(
            Part part,
            byte[] value,
            RecordChecks checks,
            DeadLetterRule notThisFormat,
            Class<? extends SchemaRegistryException> otherType,
            IntFunction<S> schemas) {
        if (!WireFormat.hasPrefix(value)) {
            int shown = Math.min(1, value.length);
            checks.reject(new Finding(part, notThisFormat, 0, shown, shown, value));
            return Optional.empty();
        }
        DeadLetterRule rule;
        try {
            return Optional.of(schemas.apply(WireFormat.schemaId(value)));
        } catch (UnknownSchemaException e) {
            rule = DeadLetterRule.UNKNOWN_SCHEMA;
        } catch (UnusableSchemaException e) {
            // Why, in the message: an operator cannot tell a schema the sanitiser does not support
            // (a Protobuf file in editions, say) from a broken one otherwise.
            checks.reject(new Finding(part, Optional.empty(), DeadLetterRule.UNUSABLE_SCHEMA, 1, 4, 4, value)
                    .withDetail(oneLine(e.getMessage())));
            return Optional.empty();
        } catch (SchemaRegistryException e) {
            if (!otherType.isInstance(e)) {
                throw e;
            }
            rule = notThisFormat;
        }
        checks.reject(new Finding(part, rule, 1, 4, 4, value));
        return Optional.empty();
    }

    /** The registry's reason on one line, at most 500 characters: it goes into a header. */
    private static String oneLine(String message) {
        String line = String.valueOf(message).replaceAll("[\\r\\n\\t]+", " ");
        return line.length() > 500 ? line.substring(0, 500) + "..." : line;
    }
}
