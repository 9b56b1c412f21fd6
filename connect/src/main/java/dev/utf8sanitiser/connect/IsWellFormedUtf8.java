package dev.utf8sanitiser.connect;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.registry.SchemaRegistryOwner;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.Part;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.transforms.predicates.Predicate;

/**
 * A predicate (KIP-585) that is true when the record's value, and its key under {@code
 * sanitiser.check.key=true}, is well-formed UTF-8 and, when content rules or a normalisation form
 * are configured, would pass them unchanged: exactly the records {@link Utf8Sanitise} under {@code
 * strict} passes on as they came. With {@code negate=true}, any transformation can be made to act on
 * the ill-formed ones only ({@code Filter} to drop them, {@code InsertHeader} to mark them).
 *
 * <p>It takes the same keys as {@link Utf8Sanitise} for what to check ({@code sanitiser.fields},
 * {@code sanitiser.content.rules}, {@code sanitiser.normalisation}, {@code sanitiser.payload.format})
 * and none of those for what to do.
 */
public class IsWellFormedUtf8<R extends ConnectRecord<R>> implements Predicate<R> {

    public static final String OVERVIEW_DOC = "A predicate which is true for records whose value (and key, "
            + "with <code>sanitiser.check.key=true</code>) is well-formed UTF-8, in a byte array, a ByteBuffer, a "
            + "string or the string fields of a Struct or Map, and passes the configured content rules unchanged.";

    /** The shared definitions this predicate takes: docs/connect.md lists them. */
    public static final ConfigDef CONFIG_DEF = ConnectKeys.configDef(ConnectKeys.NOT_FOR_PREDICATE);

    private SchemaRegistryOwner registry;
    private ValueChecker value;
    private ValueChecker key; // null unless sanitiser.check.key

    @Override
    public void configure(Map<String, ?> props) {
        SanitiserConfig config = ConnectKeys.parse(
                props, ConnectKeys.NOT_FOR_PREDICATE, getClass().getName());
        // Strict judges without fixing: anything but a pass is a record the predicate is false for.
        registry = ConnectRegistry.owner(config);
        value = ValueChecker.of(Part.VALUE, Policy.STRICT, config, registry);
        key = config.checkKey() ? ValueChecker.of(Part.KEY, Policy.STRICT, config, registry) : null;
    }

    @Override
    public boolean test(R record) {
        return value.check(record.valueSchema(), record.value()) instanceof Decision.Pass
                && (key == null || key.check(record.keySchema(), record.key()) instanceof Decision.Pass);
    }

    @Override
    public ConfigDef config() {
        return CONFIG_DEF;
    }

    @Override
    public String version() {
        return PluginVersion.VERSION;
    }

    @Override
    public void close() {
        if (registry != null) {
            registry.close();
        }
    }
}
