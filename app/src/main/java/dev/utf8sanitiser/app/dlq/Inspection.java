package dev.utf8sanitiser.app.dlq;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/**
 * How {@code dlq inspect} shows one dead-letter record: its place in the dead-letter topic and in
 * its source, the rule and where it applies, and the bytes around that place (docs/cli.md).
 */
public final class Inspection {
    private final HexView hex;
    private final int around;

    /** @param around how many bytes either side of the ill-formed run to show; negative for all */
    public Inspection(boolean colour, int around) {
        this.hex = new HexView(colour);
        this.around = around;
    }

    public void print(PrintStream out, DeadLetter record) {
        out.println(record.coordinates() + "  " + time(record.timestamp()));
        if (record.foreign().isPresent()) {
            printForeign(out, record, record.foreign().get());
            return;
        }
        if (record.annotation().isEmpty()) {
            out.println("  not annotated by the sanitiser (its headers do not end in the annotation of docs/dlq.md)");
            out.println();
            return;
        }
        DeadLetterHeaders a = record.annotation().get();
        out.println("  source   " + a.source().topic() + "-" + a.source().partition() + "@"
                + a.source().offset() + "  " + time(a.sourceTimestamp()));
        out.println("  rule     " + a.rule()
                + a.cause().map(c -> " (for " + c + ")").orElse("") + "  " + RuleDocs.of(a.rule()));
        out.println("  where    " + a.part() + a.field().map(f -> " field " + f).orElse("") + " byte " + a.offset()
                + ", length " + a.length() + "; " + a.errors() + " error(s) in the record; policy " + a.policy());
        out.println("  message  " + a.message());
        Optional<byte[]> part = record.describedPart();
        if (a.placeholder()) {
            out.println("  bytes    none: a placeholder for a record too large for this topic; the source"
                    + " coordinates find the original");
        } else if (part.isEmpty()) {
            out.println("  bytes    none: the record has no " + a.part());
        } else {
            byte[] bytes = part.get();
            HexView.Marked marked = HexView.Marked.of(bytes, a.offset(), a.length());
            out.println("  bytes    " + a.part() + ", " + bytes.length + " bytes");
            hex.lines(bytes, marked, around).forEach(line -> out.println("    " + line));
            out.println("  text     " + HexView.text(bytes, marked, around));
        }
        out.println();
    }

    private void printForeign(PrintStream out, DeadLetter record, Foreign foreign) {
        out.println("  producer " + foreign.producer().label);
        if (foreign instanceof Foreign.Refused refused) {
            out.println("  " + Replay.refusal(refused));
        } else if (foreign instanceof Foreign.Annotated a) {
            out.println("  source   " + a.source());
            out.println("  error    " + a.error());
            a.message().ifPresent(m -> out.println("  message  " + oneLine(m)));
            if (!a.details().isEmpty()) {
                StringBuilder details = new StringBuilder();
                a.details().forEach((k, v) -> details.append(details.length() == 0 ? "" : ", ")
                        .append(k)
                        .append('=')
                        .append(oneLine(v)));
                out.println("  details  " + details);
            }
        }
        if (record.value() == null) {
            out.println("  bytes    none: the record has no value");
        } else {
            byte[] bytes = record.value();
            HexView.Marked none = HexView.Marked.of(bytes, 0, 0);
            out.println("  bytes    value, " + bytes.length + " bytes");
            hex.lines(bytes, none, around).forEach(line -> out.println("    " + line));
            out.println("  text     " + HexView.text(bytes, none, around));
        }
        out.println();
    }

    /** A tool's text on one line, its control characters (a terminal's escapes among them) as {@code ?}. */
    private static String oneLine(String text) {
        return ForeignHeaders.printable(text.lines().findFirst().orElse(""));
    }

    /** One JSON object, for JSON Lines; the bytes as hex, whole. */
    public static void write(JsonGenerator json, DeadLetter record) throws IOException {
        json.writeStartObject();
        json.writeStringField("topic", record.topic());
        json.writeNumberField("partition", record.partition());
        json.writeNumberField("offset", record.offset());
        json.writeStringField("timestamp", time(record.timestamp()));
        json.writeStringField("producer", Selection.producerOf(record).orElse("none"));
        if (record.foreign().orElse(null) instanceof Foreign.Refused refused) {
            json.writeStringField("refused", refused.reason());
        }
        if (record.foreignAnnotation().isPresent()) {
            Foreign.Annotated f = record.foreignAnnotation().get();
            json.writeObjectFieldStart("source");
            json.writeStringField("topic", f.source().topic());
            if (f.source().partition().isPresent()) {
                json.writeNumberField("partition", f.source().partition().getAsInt());
            }
            if (f.source().offset().isPresent()) {
                json.writeNumberField("offset", f.source().offset().getAsLong());
            }
            json.writeEndObject();
            json.writeStringField("error", f.error());
            if (f.message().isPresent()) {
                json.writeStringField("message", f.message().get());
            }
            json.writeObjectFieldStart("details");
            for (var e : f.details().entrySet()) {
                json.writeStringField(e.getKey(), e.getValue());
            }
            json.writeEndObject();
        }
        if (record.annotation().isPresent()) {
            DeadLetterHeaders a = record.annotation().get();
            json.writeObjectFieldStart("source");
            json.writeStringField("topic", a.source().topic());
            json.writeNumberField("partition", a.source().partition());
            json.writeNumberField("offset", a.source().offset());
            json.writeStringField("timestamp", time(a.sourceTimestamp()));
            json.writeEndObject();
            json.writeStringField("rule", a.rule());
            if (a.cause().isPresent()) {
                json.writeStringField("cause", a.cause().get());
            }
            json.writeStringField("part", a.part());
            if (a.field().isPresent()) {
                json.writeStringField("field", a.field().get());
            }
            json.writeNumberField("byteOffset", a.offset());
            json.writeNumberField("length", a.length());
            json.writeNumberField("errors", a.errors());
            json.writeStringField("policy", a.policy());
            json.writeStringField("message", a.message());
            if (a.context().isPresent()) {
                json.writeStringField("context", a.context().get());
            }
        }
        Optional<byte[]> part = record.describedPart();
        if (part.isPresent()) {
            json.writeStringField("hex", HexFormat.of().formatHex(part.get()));
        }
        json.writeEndObject();
    }

    private static String time(long millis) {
        return millis < 0 ? "no timestamp" : Instant.ofEpochMilli(millis).toString();
    }
}
