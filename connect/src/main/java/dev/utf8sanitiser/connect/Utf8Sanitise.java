package dev.utf8sanitiser.connect;

import dev.utf8sanitiser.config.HeaderType;
import dev.utf8sanitiser.config.RejectAction;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.registry.SchemaRegistryOwner;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.Part;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * Checks the key ({@link Key}) or value ({@link Value}) of each record for ill-formed UTF-8 (and,
 * when configured, unwelcome characters), and passes it on, fixes it, fails it or routes it to a
 * dead-letter topic, with the same verdicts, bytes and headers as the Kafka Streams sanitiser.
 *
 * <p>In the shape of Kafka's own transformations ({@code ReplaceField}, {@code Cast}): this abstract
 * class does the work, the nested classes choose the part; the configuration is parsed once, in
 * {@link #configure}. One instance serves one task, on one thread.
 */
public abstract class Utf8Sanitise<R extends ConnectRecord<R>> implements Transformation<R> {

    public static final String OVERVIEW_DOC = "Checks that the record's key or value is well-formed UTF-8 "
            + "(Unicode Table 3-7), in a byte array, a ByteBuffer, a string, or the string fields of a Struct or "
            + "Map (<code>sanitiser.fields</code>). Under <code>sanitiser.policy=replace</code> or "
            + "<code>repair</code> an ill-formed record is fixed and passed on with the <code>__utf8.action</code> "
            + "and <code>__utf8.errors</code> headers; under <code>strict</code> (the default) it is rejected: "
            + "<code>sanitiser.on.reject=fail</code> throws a DataException naming rule, field and byte offset, "
            + "for Connect's error handling and dead-letter queue; <code>route</code> sends it to "
            + "<code>sanitiser.dlq.topic</code> with the sanitiser's dead-letter headers. Use the concrete "
            + "transformation type designed for the record key (<code>" + Key.class.getName() + "</code>) or "
            + "value (<code>" + Value.class.getName() + "</code>).";

    /** The shared definitions this transformation takes: docs/connect.md lists them. */
    public static final ConfigDef CONFIG_DEF = ConnectKeys.configDef(ConnectKeys.NOT_FOR_TRANSFORM);

    private SchemaRegistryOwner registry;
    private ValueChecker checker;
    private RejectAction onReject;
    private DeadLetterRoute route;
    private HeaderType headerType;

    @Override
    public void configure(Map<String, ?> props) {
        SanitiserConfig config = ConnectKeys.parse(
                props, ConnectKeys.NOT_FOR_TRANSFORM, getClass().getName());
        registry = ConnectRegistry.owner(config);
        checker = ValueChecker.of(part(), config.policy(), config, registry);
        onReject = config.onReject();
        headerType = config.headerType();
        route = new DeadLetterRoute(config.dlqTopicTemplate(), config.dlqContextBytes(), config.policy(), headerType);
    }

    @Override
    public R apply(R record) {
        Decision<Object> decision = checker.check(operatingSchema(record), operatingValue(record));
        if (decision instanceof Decision.Changed<Object> changed) {
            Headers headers = record.headers().duplicate();
            changed.annotation()
                    .forEach(header -> ConnectHeaders.add(headers, header.key(), header.value(), headerType));
            return newRecord(record, operatingSchema(record), changed.fixed(), headers);
        }
        if (decision instanceof Decision.DeadLetter<Object> rejected) {
            if (onReject == RejectAction.ROUTE) {
                return route.route(record, rejected);
            }
            // One line, as in __streams.errors.message: SURROGATE at value field customer.name byte 17 (ED A0 80)
            throw new DataException(DeadLetterAnnotation.message(rejected.first()));
        }
        return record;
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

    /** The part this form checks. */
    protected abstract Part part();

    protected abstract Schema operatingSchema(R record);

    protected abstract Object operatingValue(R record);

    protected abstract R newRecord(R record, Schema updatedSchema, Object updatedValue, Headers headers);

    /** Checks the record key, as text when it is a byte array. */
    public static class Key<R extends ConnectRecord<R>> extends Utf8Sanitise<R> {
        @Override
        protected Part part() {
            return Part.KEY;
        }

        @Override
        protected Schema operatingSchema(R record) {
            return record.keySchema();
        }

        @Override
        protected Object operatingValue(R record) {
            return record.key();
        }

        @Override
        protected R newRecord(R record, Schema updatedSchema, Object updatedValue, Headers headers) {
            return record.newRecord(
                    record.topic(),
                    record.kafkaPartition(),
                    updatedSchema,
                    updatedValue,
                    record.valueSchema(),
                    record.value(),
                    record.timestamp(),
                    headers);
        }
    }

    /** Checks the record value, in {@code sanitiser.payload.format} when it is a byte array. */
    public static class Value<R extends ConnectRecord<R>> extends Utf8Sanitise<R> {
        @Override
        protected Part part() {
            return Part.VALUE;
        }

        @Override
        protected Schema operatingSchema(R record) {
            return record.valueSchema();
        }

        @Override
        protected Object operatingValue(R record) {
            return record.value();
        }

        @Override
        protected R newRecord(R record, Schema updatedSchema, Object updatedValue, Headers headers) {
            return record.newRecord(
                    record.topic(),
                    record.kafkaPartition(),
                    record.keySchema(),
                    record.key(),
                    updatedSchema,
                    updatedValue,
                    record.timestamp(),
                    headers);
        }
    }
}
