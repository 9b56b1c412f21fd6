package dev.utf8sanitiser.app.console;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.app.dlq.Replay;
import dev.utf8sanitiser.app.dlq.ReplayRun;
import dev.utf8sanitiser.app.dlq.TopicReader;
import dev.utf8sanitiser.app.http.Reply;
import dev.utf8sanitiser.config.TopicNames;
import dev.utf8sanitiser.core.Policy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's HTTP side, under {@code /console}: the pages, the JSON of the overview, and the
 * console's CSS and script. It answers only requests that arrive at the configured address
 * ({@code sanitiser.console.address}) and name one of its host names in {@code Host} ({@code
 * sanitiser.console.allowed.hosts}: a DNS-rebinding page cannot read it), reads only the
 * dead-letter topics the console shows, sends headers that forbid inline script, framing and
 * caching, and takes a replay only by POST with the token and from its own pages (a request from
 * another origin or site is refused).
 */
final class ConsoleHandler extends Handler.Abstract {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleHandler.class);
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    private static final Map<String, String> SECURITY_HEADERS = Map.of(
            "Content-Security-Policy", CSP,
            "X-Content-Type-Options", "nosniff",
            "X-Frame-Options", "DENY",
            "Referrer-Policy", "same-origin", // no-referrer would make a browser send "Origin: null"
            "Cache-Control", "no-store");
    private static final Set<String> READ = Set.of("GET", "HEAD");
    private static final Set<String> READ_OR_POST = Set.of("GET", "HEAD", "POST");

    private final Console console;
    private final InetAddress address;
    private final int maxFormBytes;

    ConsoleHandler(Console console, InetAddress address, int maxFormBytes) {
        this.console = console;
        this.address = address;
        this.maxFormBytes = maxFormBytes;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Reply reply;
        String path = request.getHttpURI().getPath();
        try {
            Optional<Reply> refused = gate(request, path);
            if (refused.isEmpty() && path.equals("/console/export")) {
                Optional<Reply> bad = export(request, response);
                if (bad.isEmpty()) {
                    callback.succeeded();
                    return true;
                }
                reply = bad.get();
            } else {
                reply = refused.isPresent() ? refused.get() : answer(request, path);
            }
        } catch (TopicReader.TopicException e) {
            reply = page(
                    e.unknownTopic() ? 404 : 503,
                    Layout.page("Cannot read", html -> html.element("p", "problem", e.getMessage())));
        } catch (RuntimeException e) {
            LOG.warn("The DLQ console could not answer {}", path, e);
            reply = page(500, Layout.page("Error", html -> html.element("p", "problem", e.toString())));
        }
        return secured(bannered(reply)).send(response, callback);
    }

    /** A page of a console without a token says so at its top. */
    private Reply bannered(Reply reply) {
        if (console.writable() || !reply.type().startsWith("text/html")) {
            return reply;
        }
        return new Reply(reply.status(), reply.type(), Layout.readOnly(reply.body()), reply.headers());
    }

    /** Refuses a request from elsewhere, for another host, or with a method the path does not take. */
    private Optional<Reply> gate(Request request, String path) {
        if (!address.isAnyLocalAddress()
                && !(request.getConnectionMetaData().getLocalSocketAddress() instanceof InetSocketAddress local
                        && address.equals(local.getAddress()))) {
            return Optional.of(Reply.text(
                    403,
                    "The console answers on " + address.getHostAddress() + " only (sanitiser.console.address).\n"));
        }
        Optional<String> host = hostName(request.getHeaders().get(HttpHeader.HOST));
        if (host.isEmpty() || !console.settings().allowedHosts().contains(host.get())) {
            return Optional.of(Reply.text(
                    421,
                    "The console answers to the host names of sanitiser.console.allowed.hosts only, not "
                            + host.orElse("(no Host header)") + ".\n"));
        }
        Set<String> allowed = path.equals("/console/replay") ? READ_OR_POST : READ;
        if (!allowed.contains(request.getMethod())) {
            return Optional.of(Reply.methodNotAllowed(allowed));
        }
        return Optional.empty();
    }

    private Reply answer(Request request, String path) {
        boolean post = request.getMethod().equals("POST");
        Map<String, String> query = fields(request.getHttpURI().getQuery());
        return switch (path) {
            case "/console", "/console/" ->
                page(
                        200,
                        OverviewPage.render(
                                console.index().views(),
                                console.index().problem(),
                                RateChart.Range.of(query.get("range")),
                                console.clock().instant()));
            case "/console/record" -> record(query);
            case "/console/records" -> records(query);
            case "/console/replay" ->
                post ? replay(request) : replayForm(request.getHttpURI().getQuery());
            case "/console/api/overview" -> overviewJson();
            case "/console/static/console.css" -> resource("console.css", "text/css; charset=utf-8");
            case "/console/static/console.js" -> resource("console.js", "text/javascript; charset=utf-8");
            default ->
                page(
                        404,
                        Layout.page(
                                "Not found", html -> html.element("p", null, "No page " + path + " in the console.")));
        };
    }

    /**
     * The host name of a {@code Host} header, lower case, without its port; an IPv6 address keeps
     * its brackets. Empty when there is none or it is malformed.
     */
    static Optional<String> hostName(String header) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        String value = header.strip().toLowerCase(Locale.ROOT);
        String name;
        if (value.startsWith("[")) {
            int close = value.indexOf(']');
            if (close < 0 || !(close == value.length() - 1 || value.charAt(close + 1) == ':')) {
                return Optional.empty();
            }
            name = value.substring(0, close + 1);
        } else {
            int colon = value.indexOf(':');
            name = colon < 0 ? value : value.substring(0, colon);
        }
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1); // "localhost." names localhost too
        }
        return name.isEmpty() ? Optional.empty() : Optional.of(name);
    }

    /**
     * Why the console will not read {@code topic}: a 400 for a name no topic can have, a 404 for a
     * topic that is not one of the dead-letter topics it shows; empty when it may read it.
     */
    private Optional<Reply> refused(String topic) {
        Optional<String> illegal = TopicNames.problem(topic);
        if (illegal.isPresent()) {
            return Optional.of(
                    page(400, Layout.page("Bad request", html -> html.element("p", "problem", illegal.get() + "."))));
        }
        if (!console.reads(topic)) {
            return Optional.of(page(
                    404,
                    Layout.page(
                            "Not a dead-letter topic",
                            html -> html.element(
                                    "p",
                                    "problem",
                                    topic + " is not one of the dead-letter topics this console shows."))));
        }
        return Optional.empty();
    }

    private Reply record(Map<String, String> query) {
        String topic = query.getOrDefault("topic", "");
        int partition;
        long offset;
        try {
            partition = Integer.parseInt(query.getOrDefault("partition", ""));
            offset = Long.parseLong(query.getOrDefault("offset", ""));
        } catch (NumberFormatException e) {
            return page(
                    400,
                    Layout.page(
                            "Bad request",
                            html -> html.element("p", "problem", "A record is named by topic, partition and offset.")));
        }
        Optional<Reply> refused = refused(topic);
        if (refused.isPresent()) {
            return refused.get();
        }
        Optional<DeadLetter> record = console.record(topic, partition, offset);
        if (record.isEmpty()) {
            return page(
                    404,
                    Layout.page(
                            "No such record",
                            html -> html.element(
                                    "p",
                                    "problem",
                                    "No record at " + topic + "-" + partition + "@" + offset
                                            + " (not written yet, removed by retention or compaction, or aborted).")));
        }
        Map<Policy, Replay.Result> previews = new EnumMap<>(Policy.class);
        for (Policy policy : List.of(Policy.REPLACE, Policy.REPAIR)) {
            previews.put(policy, console.preview(record.get(), policy));
        }
        int around = console.settings().showPayload() ? -1 : console.settings().contextBytes();
        return page(
                200,
                RecordPage.render(
                        record.get(), around, previews, console.clock().instant()));
    }

    private Reply records(Map<String, String> query) {
        List<String> topics =
                console.index().views().stream().map(TopicView::topic).toList();
        String topic = query.getOrDefault("topic", "");
        if (topic.isEmpty() && !topics.isEmpty()) {
            topic = topics.get(0);
        }
        Optional<Reply> refused = refused(topic);
        if (refused.isPresent()) {
            return refused.get();
        }
        RecordFilter filter;
        int size;
        Optional<Cursor> at;
        try {
            filter = RecordFilter.of(query, console.clock().instant());
            size = size(query.get("size"), Pager.MAX_SIZE, Pager.DEFAULT_SIZE);
            at = cursor(query.get("cursor"));
        } catch (RecordFilter.BadFilterException e) {
            return badRequest(e);
        }
        String shown = topic;
        boolean showPayload = console.settings().showPayload();
        Pager.Page<RecordRow> page;
        try {
            page = console.scan(topic, reader -> {
                checkCursor(reader, at);
                return Pager.page(
                        reader,
                        filter,
                        at,
                        size,
                        new ScanBudget(Pager.PAGE_SCAN, Pager.PAGE_TIME),
                        record -> RecordRow.of(record, showPayload));
            });
        } catch (RecordFilter.BadFilterException e) {
            return badRequest(e);
        }
        RecordsPage.Shown s = new RecordsPage.Shown(
                shown,
                topics,
                filter,
                console.index().view(shown),
                size,
                at,
                page,
                console.replayed(shown),
                showPayload);
        return page(200, RecordsPage.render(s, console.clock().instant()));
    }

    /** A page size or an export's count: a number from 1 to {@code max}. */
    static int size(String text, int max, int otherwise) {
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        String shown = text.length() > 20 ? text.substring(0, 20) + "…" : text;
        throw new RecordFilter.BadFilterException("size: '" + shown + "' is not a number from 1 to " + max);
    }

    private static Optional<Cursor> cursor(String text) {
        return text == null || text.isBlank() ? Optional.empty() : Optional.of(Cursor.parse(text.strip()));
    }

    private static void checkCursor(PartitionReader reader, Optional<Cursor> at) {
        if (at.isPresent() && !reader.partitions().contains(at.get().partition())) {
            throw new RecordFilter.BadFilterException(
                    "cursor: the topic has no partition " + at.get().partition());
        }
    }

    /**
     * Streams the chosen records as NDJSON ({@link Export}); a reply instead when the request
     * cannot be answered so.
     */
    private Optional<Reply> export(Request request, Response response) {
        String encoded = request.getHttpURI().getQuery();
        Map<String, String> query = fields(encoded);
        String topic = query.getOrDefault("topic", "");
        Optional<Reply> refused = refused(topic);
        if (refused.isPresent()) {
            return refused;
        }
        RecordFilter filter;
        Optional<Cursor> at;
        List<Cursor> picks = new ArrayList<>();
        String encoding = query.getOrDefault("encoding", "hex");
        try {
            if (!encoding.equals("hex") && !encoding.equals("base64")) {
                throw new RecordFilter.BadFilterException("encoding: hex or base64, not '"
                        + (encoding.length() > 20 ? encoding.substring(0, 20) + "…" : encoding) + "'");
            }
            filter = RecordFilter.of(query, console.clock().instant());
            at = cursor(query.get("cursor"));
            if (query.getOrDefault("scope", "").equals("picked")) {
                for (String pick : all(encoded, "pick")) {
                    if (picks.size() == Pager.MAX_SIZE) {
                        throw new RecordFilter.BadFilterException(
                                "export at most " + Pager.MAX_SIZE + " ticked records, or every match of a filter");
                    }
                    picks.add(Cursor.parse(pick));
                }
                if (picks.isEmpty()) {
                    throw new RecordFilter.BadFilterException("tick the records to export, or export every match");
                }
            }
        } catch (RecordFilter.BadFilterException e) {
            return Optional.of(badRequest(e));
        }
        boolean showPayload = console.settings().showPayload();
        Map<String, String> headers = new LinkedHashMap<>(SECURITY_HEADERS);
        headers.put("Content-Type", "application/x-ndjson");
        headers.put("Content-Disposition", "attachment; filename=\"" + topic + ".ndjson\"");
        response.setStatus(200);
        headers.forEach(response.getHeaders()::put);
        try (OutputStream out = Content.Sink.asOutputStream(response)) {
            Export export = new Export(out, encoding.equals("base64"), showPayload);
            try {
                if (!picks.isEmpty()) {
                    for (Cursor pick : picks) {
                        console.record(topic, pick.partition(), pick.offset())
                                .filter(r -> filter.matches(r, new ScanBudget(1, Pager.PAGE_TIME)))
                                .ifPresent(export::write);
                    }
                    export.end(Optional.empty(), "");
                } else {
                    Pager.Page<Boolean> page = console.scan(topic, reader -> {
                        checkCursor(reader, at);
                        return Pager.page(
                                reader,
                                filter,
                                at,
                                Export.MAX_RECORDS,
                                new ScanBudget(Export.MAX_SCANNED, Export.MAX_TIME),
                                record -> {
                                    export.write(record);
                                    return Boolean.TRUE;
                                });
                    });
                    export.end(
                            page.next(),
                            page.budgetSpent()
                                    ? "read " + page.scanned() + " records, the most one export reads"
                                    : Export.MAX_RECORDS + " records, the most one export writes");
                }
            } catch (RuntimeException e) {
                LOG.warn("The DLQ console's export of {} stopped", topic, e);
                export.end("error", Optional.empty(), "stopped: " + e.getMessage());
            }
        } catch (IOException e) {
            LOG.debug("An export of {} was not taken to its end", topic, e); // the client went away
        }
        return Optional.empty();
    }

    private Reply replayForm(String encoded) {
        Map<String, String> query = fields(encoded);
        List<String> topics =
                console.index().views().stream().map(TopicView::topic).toList();
        ReplayRequest request;
        try {
            request = ReplayRequest.of(
                    query, all(encoded, "pick"), console.clock().instant());
        } catch (RecordFilter.BadFilterException e) {
            return badRequest(e);
        }
        if (!query.containsKey("to")) {
            return page(200, ReplayPage.form(request, topics, console.targets(), null));
        }
        Optional<Reply> refused = refused(request);
        if (refused.isPresent()) {
            return refused.get();
        }
        ReplayRun run;
        try {
            run = request.run(true);
        } catch (IllegalArgumentException e) {
            return page(400, ReplayPage.form(request, topics, console.targets(), e.getMessage()));
        }
        List<Replay.Result> results = new ArrayList<>();
        try {
            ReplayRun.Tally tally = console.replay(run, request.also(), collect(results));
            return page(200, ReplayPage.preview(request, tally, results, console.writable()));
        } catch (ReplayRun.NoTargetException e) {
            return page(400, ReplayPage.form(request, topics, console.targets(), e.getMessage()));
        } catch (ScanBudget.Exhausted e) {
            return page(
                    503,
                    Layout.page(
                            "Too slow",
                            html -> html.element(
                                    "p",
                                    "problem",
                                    "The filter's regular expressions took longer than "
                                            + ReplayRequest.MATCH_TIME.toMinutes()
                                            + " min over the topic: nothing was chosen.")));
        } catch (Exception e) {
            throw failed(e);
        }
    }

    private static Reply badRequest(IllegalArgumentException e) {
        return page(400, Layout.page("Bad request", html -> html.raw("<p class=\"problem\" role=\"alert\">")
                .text(e.getMessage() + ".")
                .raw("</p>")));
    }

    /** A replay's source must be a topic the console shows, and its target a legal name. */
    private Optional<Reply> refused(ReplayRequest request) {
        if (request.topic().isBlank() || request.to().isBlank()) {
            return Optional.empty(); // ReplayRequest.run says which is missing
        }
        // To their sources: Replay refuses a source that is the dead-letter topic, its replay log,
        // an internal topic or a topic that is not there, record by record.
        Optional<String> illegal = request.toSource() ? Optional.empty() : TopicNames.problem(request.to());
        if (illegal.isPresent()) {
            return Optional.of(
                    page(400, Layout.page("Bad request", html -> html.element("p", "problem", illegal.get() + "."))));
        }
        return refused(request.topic());
    }

    private Reply replay(Request http) {
        if (!sameOrigin(http)) {
            LOG.warn(
                    "DLQ console: a replay was refused, not from the console's own page (Origin {}), from {}",
                    Optional.ofNullable(http.getHeaders().get("Origin")).orElse("none"),
                    http.getConnectionMetaData().getRemoteSocketAddress());
            return Reply.text(403, "A replay is asked for from the console's own page.\n");
        }
        Optional<String> body = readForm(http);
        if (body.isEmpty()) {
            return Reply.text(413, "A form has at most " + maxFormBytes + " bytes.\n");
        }
        Map<String, String> form = fields(body.get());
        if (!console.writable()) {
            return page(
                    403,
                    Layout.page(
                            "Replay is off",
                            html -> html.element(
                                    "p",
                                    "problem",
                                    "This console only reads: set sanitiser.console.token to replay from here.")));
        }
        if (!console.tokenMatches(form.get("token"))) {
            LOG.warn(
                    "DLQ console: a replay was refused, wrong token, from {}",
                    http.getConnectionMetaData().getRemoteSocketAddress());
            return page(
                    403,
                    Layout.page(
                            "Wrong token",
                            html -> html.element(
                                    "p",
                                    "problem",
                                    "The token is not the console's (sanitiser.console.token). Nothing was sent.")));
        }
        ReplayRequest request;
        try {
            request = ReplayRequest.of(
                    form, all(body.get(), "pick"), console.clock().instant());
        } catch (RecordFilter.BadFilterException e) {
            return badRequest(e);
        }
        Optional<Reply> refused = refused(request);
        if (refused.isPresent()) {
            return refused.get();
        }
        List<Replay.Result> results = new ArrayList<>();
        try {
            ReplayRun.Tally tally = console.replay(request.run(false), request.also(), collect(results));
            LOG.info(
                    "DLQ console: replayed {} of {} records from {} to {} ({}), asked from {}",
                    tally.sent(),
                    tally.chosen(),
                    request.topic(),
                    request.where(),
                    request.policy(),
                    http.getConnectionMetaData().getRemoteSocketAddress());
            return page(200, ReplayPage.result(request, tally, results));
        } catch (IllegalArgumentException | ReplayRun.NoTargetException e) {
            return page(400, Layout.page("Nothing was sent", html -> html.element("p", "problem", e.getMessage())));
        } catch (Exception e) {
            throw failed(e);
        }
    }

    /**
     * Whether a POST comes from a page of this console: browsers send {@code Origin} with every
     * POST, and it must name the host the request was sent to; those that send {@code
     * Sec-Fetch-Site} must say {@code same-origin}.
     */
    private static boolean sameOrigin(Request request) {
        String site = request.getHeaders().get("Sec-Fetch-Site");
        if (site != null && !site.equalsIgnoreCase("same-origin")) {
            return false;
        }
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        String host = request.getHeaders().get(HttpHeader.HOST);
        if (origin == null) {
            return true; // not a browser (curl, a script): the token alone decides
        }
        try {
            return host != null && host.equalsIgnoreCase(URI.create(origin).getRawAuthority());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static Consumer<Replay.Result> collect(List<Replay.Result> results) {
        return result -> {
            if (results.size() < ReplayPage.LISTED) {
                results.add(result);
            }
        };
    }

    private static RuntimeException failed(Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        if (e instanceof RuntimeException runtime) {
            return runtime;
        }
        return new IllegalStateException("the replay failed: " + e.getMessage(), e);
    }

    private Reply overviewJson() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try (JsonGenerator json = new JsonFactory().createGenerator(body)) {
            json.writeStartObject();
            json.writeStringField("at", console.clock().instant().toString());
            if (console.index().problem().isPresent()) {
                json.writeStringField("problem", console.index().problem().get());
            }
            json.writeArrayFieldStart("topics");
            for (TopicView view : console.index().views()) {
                json.writeStartObject();
                json.writeStringField("topic", view.topic());
                json.writeBooleanField("exists", view.exists());
                json.writeNumberField("records", view.records());
                json.writeNumberField("behind", view.behind());
                counts(json, "byRule", view.byRule());
                counts(json, "bySource", view.bySource());
                counts(json, "byField", view.byField());
                json.writeArrayFieldStart("newest");
                for (TopicView.Summary s : view.newest()) {
                    json.writeStartObject();
                    json.writeNumberField("partition", s.partition());
                    json.writeNumberField("offset", s.offset());
                    json.writeNumberField("timestamp", s.timestamp());
                    json.writeStringField("rule", s.rule());
                    json.writeStringField("source", s.source());
                    json.writeStringField("field", s.field());
                    json.writeEndObject();
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Reply(200, "application/json", body.toString(StandardCharsets.UTF_8), Map.of());
    }

    private static void counts(JsonGenerator json, String name, Map<String, Long> counts) throws IOException {
        json.writeObjectFieldStart(name);
        for (Map.Entry<String, Long> e : new TreeMap<>(counts).entrySet()) {
            json.writeNumberField(e.getKey(), e.getValue());
        }
        json.writeEndObject();
    }

    private static Reply resource(String name, String type) {
        try (InputStream in = ConsoleHandler.class.getResourceAsStream(name)) {
            if (in == null) {
                return Reply.text(404, "no " + name + "\n");
            }
            return new Reply(200, type, new String(in.readAllBytes(), StandardCharsets.UTF_8), Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The form's text; empty when it is longer than {@code maxFormBytes}. */
    private Optional<String> readForm(Request request) {
        long declared = request.getLength();
        if (declared > maxFormBytes) {
            return Optional.empty(); // refused before a byte of it is read
        }
        try (InputStream in = Content.Source.asInputStream(request)) {
            byte[] body = in.readNBytes(maxFormBytes + 1);
            return body.length > maxFormBytes
                    ? Optional.empty()
                    : Optional.of(new String(body, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every value of {@code name} in {@code a=1&a=2}, URL-decoded, in order (a malformed one left out). */
    static List<String> all(String encoded, String name) {
        List<String> values = new ArrayList<>();
        if (encoded == null || encoded.isEmpty()) {
            return values;
        }
        for (String pair : encoded.split("&")) {
            int eq = pair.indexOf('=');
            try {
                if (eq > 0
                        && URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8)
                                .equals(name)) {
                    values.add(URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            } catch (IllegalArgumentException e) {
                // a malformed escape: left out, as fields() does
            }
        }
        return values;
    }

    /** {@code a=1&b=2}, URL-decoded; the first value of a name counts. */
    static Map<String, String> fields(String encoded) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return fields;
        }
        for (String pair : encoded.split("&")) {
            int eq = pair.indexOf('=');
            try {
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                fields.putIfAbsent(name, value);
            } catch (IllegalArgumentException e) {
                // a malformed escape (%zz): the field is left out, as if not sent
            }
        }
        return fields;
    }

    private static Reply page(int status, String html) {
        return new Reply(status, "text/html; charset=utf-8", html, Map.of());
    }

    /** {@code reply} with the headers every console answer carries. */
    private static Reply secured(Reply reply) {
        Map<String, String> headers = new LinkedHashMap<>(reply.headers());
        headers.putAll(SECURITY_HEADERS);
        return new Reply(reply.status(), reply.type(), reply.body(), headers);
    }
}
