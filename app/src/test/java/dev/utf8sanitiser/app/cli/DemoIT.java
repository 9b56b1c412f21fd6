package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code demo} in-process, as the README shows it: its own embedded broker and registry, every
 * text, Avro and Protobuf sample accounted for, each dead letter with its rule, field and offset,
 * and protobuf-java refusing the damaged Protobuf orders the sanitiser names the field of.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DemoIT {
    @Test
    void everySampleIsAccountedForWithItsFieldAndProtobufRefusesTheDamagedOrders() {
        CliRun demo = CliRun.of("demo");

        String out = demo.stdoutText();
        assertThat(demo.exit()).as(demo.stderr() + out).isZero();
        assertThat(out)
                .contains("\n13 of 13 records accounted for: 3 to demo.input.clean, 10 to demo.input.dlq\n")
                .contains("\n8 of 8 Avro records accounted for: 2 to demo.orders.clean, 6 to demo.orders.dlq\n")
                .contains("  CESU-8 city (a database export)                -> demo.orders.dlq  SURROGATE in"
                        + " customer.address.city at byte 48\n")
                .contains("NON_SHORTEST_FORM in lines[1].sku at byte 138\n")
                .contains("\n8 of 8 Protobuf records accounted for: 2 to demo.proto-orders.clean,"
                        + " 6 to demo.proto-orders.dlq\n");

        // The offsets from the samples' own bytes (the schema id takes 4 bytes whatever its value).
        List<DemoProtoOrders.Sample> samples = DemoProtoOrders.samples(1);
        int city = indexOf(samples.get(2).value(), 0xED);
        int sku = indexOf(samples.get(3).value(), 0xC0);
        int tag = indexOf(samples.get(4).value(), 0xE9);
        assertThat(out)
                .contains("  well-formed order                              -> demo.proto-orders.clean\n")
                .contains("  well-formed order, every script                -> demo.proto-orders.clean\n")
                .contains("  CESU-8 city (a database export)                -> demo.proto-orders.dlq  SURROGATE in"
                        + " customer.city at byte " + city + "\n")
                .contains("  overlong '/' in a line's sku                   -> demo.proto-orders.dlq "
                        + " NON_SHORTEST_FORM in lines[1].sku at byte " + sku + "\n")
                .contains("  Latin-1 'é' in a tag value                     -> demo.proto-orders.dlq "
                        + " " + firstRule(new byte[] {'c', 'a', 'f', (byte) 0xE9}) + " in tags{note} at byte " + tag
                        + "\n")
                .contains("  JSON sent to a Protobuf topic                  -> demo.proto-orders.dlq "
                        + " NOT_PROTOBUF at byte 0\n")
                .contains("  an id the registry never gave                  -> demo.proto-orders.dlq "
                        + " UNKNOWN_SCHEMA at byte 1\n")
                .contains("  cut short in transit                           -> demo.proto-orders.dlq "
                        + " MALFORMED_PROTOBUF");
        assertThat(out)
                .contains("; the DLQ record says SURROGATE at value field customer.city byte " + city
                        + " (ED A0 BD ED B8 80) (context ");
        for (String field : List.of("customer.city", "lines[1].sku", "tags{note}")) {
            assertThat(out)
                    .as(field)
                    .containsPattern("\n  " + Pattern.quote(field)
                            + " +DynamicMessage.parseFrom refuses it: \"Protocol message had invalid UTF-8.\";"
                            + " the DLQ record says [A-Z_]+ at value field "
                            + Pattern.quote(field) + " byte \\d+ ");
        }
    }

    /** The core's rule for the first error of {@code bytes}: the oracle for a dead letter's rule. */
    private static String firstRule(byte[] bytes) {
        return DeadLetterRule.of(Utf8Sanitiser.sanitise(bytes, Policy.STRICT)
                        .errors()
                        .get(0)
                        .rule())
                .name();
    }

    private static int indexOf(byte[] bytes, int b) {
        for (int i = 0; i < bytes.length; i++) {
            if ((bytes[i] & 0xFF) == b) {
                return i;
            }
        }
        throw new AssertionError("no byte " + b);
    }
}
