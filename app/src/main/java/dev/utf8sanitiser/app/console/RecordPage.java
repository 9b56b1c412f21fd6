package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.app.dlq.Foreign;
import dev.utf8sanitiser.app.dlq.HexView;
import dev.utf8sanitiser.app.dlq.Replay;
import dev.utf8sanitiser.app.dlq.RuleDocs;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * One dead letter: its annotation, a hex view with the ill-formed run highlighted and the rule in
 * words, the text around it, and what {@code replace} and {@code repair} would send. Without {@code
 * sanitiser.console.show.payload} only the bytes within the context window are shown.
 */
final class RecordPage {
    private static final int PER_LINE = 16;

    private RecordPage() {}

    /**
     * @param around bytes shown either side of the ill-formed run; negative for the whole part
     * @param previews what a replay would send under each policy
     */
    static String render(DeadLetter record, int around, Map<Policy, Replay.Result> previews) {
        return render(record, around, previews, Instant.now());
    }

    /** @param now what the times' "ago" is counted from */
    static String render(DeadLetter record, int around, Map<Policy, Replay.Result> previews, Instant now) {
        return Layout.page("Dead letter " + record.coordinates(), html -> {
            if (record.foreign().isPresent()) {
                foreign(html, record, record.foreign().get(), now);
                headers(html, record, around < 0);
                return;
            }
            if (record.annotation().isEmpty()) {
                html.element(
                        "p",
                        "problem",
                        "Not annotated by the sanitiser: its headers do not end in the annotation of docs/dlq.md.");
                headers(html, record, around < 0);
                return;
            }
            DeadLetterHeaders a = record.annotation().get();
            annotation(html, record, a, now);
            Optional<byte[]> part = record.describedPart();
            if (a.placeholder()) {
                html.element(
                        "p",
                        "note",
                        "A placeholder: the record was too large for this topic; its source coordinates find the"
                                + " original.");
            } else if (part.isEmpty()) {
                html.element("p", "note", "The record has no " + a.part() + ".");
            } else {
                bytes(html, part.get(), a, around, previews);
            }
            headers(html, record, around < 0);
            html.raw("<p>")
                    .link(
                            Html.url(
                                    Layout.ROOT + "/replay",
                                    "topic",
                                    record.topic(),
                                    "source",
                                    a.source().topic() + "-" + a.source().partition() + "@"
                                            + a.source().offset()),
                            "Replay this record…")
                    .raw("</p>");
        });
    }

    /** Another tool's dead letter: who wrote it, the error it names and where the record was read. */
    private static void foreign(Html html, DeadLetter record, Foreign foreign, Instant now) {
        html.raw("<dl class=\"annotation\">");
        html.raw("<dt>dead letter</dt><dd>").text(record.coordinates() + "  ");
        Times.write(html, record.timestamp(), now);
        html.raw("</dd>");
        row(html, "producer", foreign.producer().label);
        if (foreign instanceof Foreign.Annotated a) {
            row(html, "source", a.source().toString());
            row(html, "error", a.error());
            a.message().ifPresent(m -> row(html, "message", m));
            a.details().forEach((name, value) -> row(html, name, value));
        } else if (foreign instanceof Foreign.Refused refused) {
            row(html, "refused", Replay.refusal(refused));
        }
        html.raw("</dl>");
    }

    private static void annotation(Html html, DeadLetter record, DeadLetterHeaders a, Instant now) {
        html.raw("<dl class=\"annotation\">");
        html.raw("<dt>dead letter</dt><dd>").text(record.coordinates() + "  ");
        Times.write(html, record.timestamp(), now);
        html.raw("</dd><dt>source</dt><dd>")
                .text(a.source().topic() + "-" + a.source().partition() + "@"
                        + a.source().offset() + "  ");
        Times.write(html, a.sourceTimestamp(), now);
        html.raw("</dd>");
        html.raw("<dt>rule</dt><dd><a class=\"rule\"")
                .attr("href", RuleDocs.PUBLISHED + RuleDocs.of(a.rule()))
                .raw(">")
                .text(a.rule())
                .raw("</a>");
        a.cause().ifPresent(c -> html.text(" (for " + c + ")"));
        RuleDocs.description(a.rule())
                .ifPresent(d -> html.raw(" <span class=\"explained\">").text(d).raw("</span>"));
        html.raw("</dd>");
        row(html, "part", a.part());
        a.field().ifPresent(f -> row(html, "field", f));
        row(html, "byte offset", a.offset() + ", length " + a.length());
        row(html, "errors", a.errors() + " in the record");
        row(html, "policy", a.policy());
        row(html, "message", a.message());
        html.raw("</dl>");
    }

    private static void bytes(
            Html html, byte[] bytes, DeadLetterHeaders a, int around, Map<Policy, Replay.Result> previews) {
        HexView.Marked marked = HexView.Marked.of(bytes, a.offset(), a.length());
        HexView.Window window = HexView.Window.of(bytes, marked, around);
        html.raw("<h2>Bytes</h2><p class=\"note\">")
                .text(a.part() + ", " + bytes.length + " bytes"
                        + (around < 0
                                ? ""
                                : "; bytes " + window.start() + " to " + window.end()
                                        + " shown (sanitiser.console.show.payload=false)"))
                .raw("</p><table class=\"hex\"><tbody>");
        for (int line = window.start(); line < window.end(); line += PER_LINE) {
            html.raw("<tr><th>").text(String.format(Locale.ROOT, "%08x", line)).raw("</th><td class=\"bytes\">");
            StringBuilder ascii = new StringBuilder();
            for (int i = line; i < line + PER_LINE && i < window.end(); i++) {
                boolean bad = i >= marked.from() && i < marked.to();
                int b = bytes[i] & 0xFF;
                html.raw(bad ? "<span class=\"bad\">" : "<span>")
                        .text(String.format(Locale.ROOT, "%02x", b))
                        .raw("</span> ");
                ascii.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
            }
            html.raw("</td><td class=\"ascii\">").text(ascii).raw("</td></tr>");
        }
        html.raw("</tbody></table>");
        html.raw("<h2>Text</h2><pre class=\"text\">")
                .text(HexView.text(bytes, window.start(), window.end()))
                .raw("</pre>");
        html.raw("<h2>What a replay would send</h2><table class=\"previews\"><tbody>");
        previews.forEach((policy, result) -> {
            String name = policy.name().toLowerCase(Locale.ROOT);
            html.raw("<tr").attr("data-policy", name).raw("><th>").text(name).raw("</th><td>");
            if (result instanceof Replay.Send send) {
                html.element("p", "what", send.what());
                partOf(send.out(), a.part()).ifPresent(out -> html.raw("<pre class=\"text\">")
                        .text(HexView.text(
                                out,
                                Math.min(window.start(), out.length),
                                around < 0
                                        ? out.length
                                        : Math.min(out.length, window.end() + 2 * (marked.to() - marked.from()))))
                        .raw("</pre>"));
            } else if (result instanceof Replay.Skip skip) {
                html.element("p", "what", skip.reason());
            }
            html.raw("</td></tr>");
        });
        html.raw("</tbody></table>");
    }

    /** The same part of a record to send: its key, value, or a header. */
    private static Optional<byte[]> partOf(ProducerRecord<byte[], byte[]> out, String part) {
        if (part.equals("value")) {
            return Optional.ofNullable(out.value());
        }
        if (part.equals("key")) {
            return Optional.ofNullable(out.key());
        }
        String name = part.startsWith("header:") ? part.substring("header:".length()) : part;
        Header header = out.headers().lastHeader(name);
        return Optional.ofNullable(header).map(Header::value);
    }

    /**
     * Every header: the annotation and the trace context ({@code traceparent}, {@code tracestate})
     * as text; the record's other own values only when payloads are shown.
     */
    private static void headers(Html html, DeadLetter record, boolean showPayload) {
        // The record's own headers come first, the annotation after them: by position, as an own
        // header may have an annotation's name and value.
        int own = DeadLetterHeaders.original(record.headers()).size();
        html.raw("<h2>Headers</h2><table class=\"headers\"><tbody>");
        for (int i = 0; i < record.headers().size(); i++) {
            Header header = record.headers().get(i);
            boolean annotation = i >= own;
            html.raw("<tr><th>").text(header.key()).raw("</th><td>");
            if (header.value() == null) {
                html.text("(null)");
            } else if (annotation || showPayload || Export.TRACE_HEADERS.contains(header.key())) {
                // The trace context finds the request in the tracing system; it holds no payload.
                html.text(new String(header.value(), StandardCharsets.UTF_8));
            } else {
                html.raw("<span class=\"note\">")
                        .text(header.value().length + " bytes, shown with sanitiser.console.show.payload=true")
                        .raw("</span>");
            }
            html.raw("</td></tr>");
        }
        html.raw("</tbody></table>");
    }

    private static void row(Html html, String name, String value) {
        html.raw("<dt>").text(name).raw("</dt><dd>").text(value).raw("</dd>");
    }
}
