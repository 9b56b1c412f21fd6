package dev.utf8sanitiser.processor.console;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.processor.dlq.DeadLetter;
import dev.utf8sanitiser.processor.dlq.Replay;
import dev.utf8sanitiser.processor.dlq.ReplayRun;
import dev.utf8sanitiser.processor.dlq.TopicReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's HTTP side, under {@code /console}: the pages, the JSON of the overview, and the
 * console's CSS and script. It answers only requests that arrive at the configured address
 * ({@code sanitiser.console.address}), sends headers that forbid inline script, framing and
 * caching, and takes a replay only by POST with the token and from its own pages (a request from
 * another origin is refused).
 */
final class ConsoleHandler implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleHandler.class);
    private static final int MAX_FORM_BYTES = 64 * 1024;
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private final Console console;
    private final InetAddress address;

    ConsoleHandler(Console console, InetAddress address) {
        this.console = console;
        this.address = address;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            InetAddress local = exchange.getLocalAddress().getAddress();
            if (!address.isAnyLocalAddress() && !address.equals(local)) {
                send(
                        exchange,
                        403,
                        "text/plain; charset=utf-8",
                        "The console answers on " + address.getHostAddress() + " only (sanitiser.console.address).\n");
                return;
            }
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            boolean post = method.equals("POST");
            if (!post && !method.equals("GET") && !method.equals("HEAD")) {
                send(exchange, 405, "text/plain; charset=utf-8", "GET or POST\n");
                return;
            }
            Map<String, String> query = fields(exchange.getRequestURI().getRawQuery());
            switch (path) {
                case "/console", "/console/" ->
                    page(
                            exchange,
                            200,
                            OverviewPage.render(
                                    console.index().views(),
                                    console.index().problem(),
                                    RateChart.Range.of(query.get("range")),
                                    console.clock().instant()));
                case "/console/record" -> record(exchange, query);
                case "/console/replay" -> {
                    if (post) {
                        replay(exchange);
                    } else {
                        replayForm(exchange, query);
                    }
                }
                case "/console/api/overview" -> overviewJson(exchange);
                case "/console/static/console.css" -> resource(exchange, "console.css", "text/css; charset=utf-8");
                case "/console/static/console.js" -> resource(exchange, "console.js", "text/javascript; charset=utf-8");
                default ->
                    page(
                            exchange,
                            404,
                            Layout.page(
                                    "Not found",
                                    html -> html.element("p", null, "No page " + path + " in the console.")));
            }
        } catch (TopicReader.TopicException e) {
            page(
                    exchange,
                    e.unknownTopic() ? 404 : 503,
                    Layout.page("Cannot read", html -> html.element("p", "problem", e.getMessage())));
        } catch (RuntimeException e) {
            LOG.warn(
                    "The DLQ console could not answer {}",
                    exchange.getRequestURI().getPath(),
                    e);
            page(exchange, 500, Layout.page("Error", html -> html.element("p", "problem", e.toString())));
        } finally {
            exchange.close();
        }
    }

    private void record(HttpExchange exchange, Map<String, String> query) throws IOException {
        String topic = query.getOrDefault("topic", "");
        int partition;
        long offset;
        try {
            partition = Integer.parseInt(query.getOrDefault("partition", ""));
            offset = Long.parseLong(query.getOrDefault("offset", ""));
        } catch (NumberFormatException e) {
            page(
                    exchange,
                    400,
                    Layout.page(
                            "Bad request",
                            html -> html.element("p", "problem", "A record is named by topic, partition and offset.")));
            return;
        }
        Optional<DeadLetter> record = console.record(topic, partition, offset);
        if (record.isEmpty()) {
            page(
                    exchange,
                    404,
                    Layout.page(
                            "No such record",
                            html -> html.element(
                                    "p",
                                    "problem",
                                    "No record at " + topic + "-" + partition + "@" + offset
                                            + " (not written yet, removed by retention or compaction, or aborted).")));
            return;
        }
        Map<Policy, Replay.Result> previews = new EnumMap<>(Policy.class);
        for (Policy policy : List.of(Policy.REPLACE, Policy.REPAIR)) {
            previews.put(policy, console.preview(record.get(), policy));
        }
        int around = console.settings().showPayload() ? -1 : console.settings().contextBytes();
        page(exchange, 200, RecordPage.render(record.get(), around, previews));
    }

    private void replayForm(HttpExchange exchange, Map<String, String> query) throws IOException {
        ReplayRequest request = ReplayRequest.of(query);
        List<String> topics =
                console.index().views().stream().map(TopicView::topic).toList();
        if (!query.containsKey("to")) {
            page(exchange, 200, ReplayPage.form(request, topics, console.writable(), null));
            return;
        }
        ReplayRun run;
        try {
            run = request.run(true);
        } catch (IllegalArgumentException e) {
            page(exchange, 400, ReplayPage.form(request, topics, console.writable(), e.getMessage()));
            return;
        }
        List<Replay.Result> results = new ArrayList<>();
        try {
            ReplayRun.Tally tally = console.replay(run, collect(results));
            page(exchange, 200, ReplayPage.preview(request, tally, results, console.writable()));
        } catch (ReplayRun.NoTargetException e) {
            page(exchange, 400, ReplayPage.form(request, topics, console.writable(), e.getMessage()));
        } catch (Exception e) {
            throw failed(e);
        }
    }

    private void replay(HttpExchange exchange) throws IOException {
        if (!sameOrigin(exchange)) {
            send(exchange, 403, "text/plain; charset=utf-8", "A replay is asked for from the console's own page.\n");
            return;
        }
        Map<String, String> form = fields(readForm(exchange));
        if (!console.writable()) {
            page(
                    exchange,
                    403,
                    Layout.page(
                            "Replay is off",
                            html -> html.element(
                                    "p",
                                    "problem",
                                    "This console only reads: set sanitiser.console.token to replay from here.")));
            return;
        }
        if (!console.tokenMatches(form.get("token"))) {
            LOG.warn("DLQ console: a replay was refused, wrong token, from {}", exchange.getRemoteAddress());
            page(
                    exchange,
                    403,
                    Layout.page(
                            "Wrong token",
                            html -> html.element(
                                    "p",
                                    "problem",
                                    "The token is not the console's (sanitiser.console.token). Nothing was sent.")));
            return;
        }
        ReplayRequest request = ReplayRequest.of(form);
        List<Replay.Result> results = new ArrayList<>();
        try {
            ReplayRun.Tally tally = console.replay(request.run(false), collect(results));
            LOG.info(
                    "DLQ console: replayed {} of {} records from {} to {} ({})",
                    tally.sent(),
                    tally.chosen(),
                    request.topic(),
                    request.to(),
                    request.policy());
            page(exchange, 200, ReplayPage.result(request, tally, results));
        } catch (IllegalArgumentException | ReplayRun.NoTargetException e) {
            page(exchange, 400, Layout.page("Nothing was sent", html -> html.element("p", "problem", e.getMessage())));
        } catch (Exception e) {
            throw failed(e);
        }
    }

    /**
     * Whether a POST comes from a page of this console: browsers send {@code Origin} with every
     * POST, and it must name the host the request was sent to.
     */
    private static boolean sameOrigin(HttpExchange exchange) {
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        String host = exchange.getRequestHeaders().getFirst("Host");
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

    private void overviewJson(HttpExchange exchange) throws IOException {
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
        }
        send(exchange, 200, "application/json", body.toString(StandardCharsets.UTF_8));
    }

    private static void counts(JsonGenerator json, String name, Map<String, Long> counts) throws IOException {
        json.writeObjectFieldStart(name);
        for (Map.Entry<String, Long> e : new TreeMap<>(counts).entrySet()) {
            json.writeNumberField(e.getKey(), e.getValue());
        }
        json.writeEndObject();
    }

    private static void resource(HttpExchange exchange, String name, String type) throws IOException {
        try (InputStream in = ConsoleHandler.class.getResourceAsStream(name)) {
            if (in == null) {
                send(exchange, 404, "text/plain; charset=utf-8", "no " + name + "\n");
                return;
            }
            send(exchange, 200, type, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static String readForm(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readNBytes(MAX_FORM_BYTES + 1);
        if (body.length > MAX_FORM_BYTES) {
            throw new IllegalArgumentException("a form of more than " + MAX_FORM_BYTES + " bytes");
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    /** {@code a=1&b=2}, URL-decoded; the first value of a name counts. */
    static Map<String, String> fields(String encoded) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return fields;
        }
        for (String pair : encoded.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            fields.putIfAbsent(name, value);
        }
        return fields;
    }

    private static void page(HttpExchange exchange, int status, String html) throws IOException {
        send(exchange, status, "text/html; charset=utf-8", html);
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        var headers = exchange.getResponseHeaders();
        headers.set("Content-Type", type);
        headers.set("Content-Security-Policy", CSP);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("X-Frame-Options", "DENY");
        headers.set("Referrer-Policy", "same-origin"); // no-referrer would make a browser send "Origin: null"
        headers.set("Cache-Control", "no-store");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
