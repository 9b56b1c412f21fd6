package dev.utf8sanitiser.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.app.LogLines;
import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.SanitiserConfigFile;
import dev.utf8sanitiser.config.SanitiserConfigLoader;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The DLQ console of a running sanitiser ({@code run} with {@code sanitiser.console.enabled}) on a
 * real broker with real dead letters: over HTTP (the counts, the safety rules) and in a real browser
 * (headless Chromium driven by Selenium: the overview, a record's highlighted bytes, a hostile
 * record shown as text, a replay through the page that lands exactly once). The browser test needs
 * Debian's {@code chromium} and {@code chromium-driver}; {@code .ci/run} installs them, and without
 * them that one test is skipped with the reason.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@ExtendWith(SharedKafka.class)
class ConsoleIT {
    private static final String IN = SharedKafka.unique("console-in");
    private static final String DLQ = IN + ".dlq";
    private static final String REPLAYED = SharedKafka.unique("console-replayed");
    private static final String TOKEN = "console-test-token";
    private static final String HOSTILE = "<script>";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    private static EmbeddedKafka kafka;
    private static SanitiserApplication app;
    private static String base;
    private static final List<byte[]> BAD = new ArrayList<>();

    @BeforeAll
    static void startTheSanitiserWithItsConsoleAndDeadLetterSomeRecords(EmbeddedKafka shared) throws Exception {
        BAD.add(bytes("a", 0xC0, 0xAF)); // NON_SHORTEST_FORM
        BAD.add(bytes("order 17: caf", 0xED, 0xA0, 0x80, "!")); // SURROGATE
        BAD.add(bytes("a", 0xE2, 0x82)); // TRUNCATED_AT_END
        BAD.add(bytes("b", 0xF0, 0x9F, 0x98)); // TRUNCATED_AT_END
        BAD.add(bytes(HOSTILE, 0xFF, "alert('dlq')</script>")); // INVALID_BYTE, in markup
        kafka = shared;
        kafka.createTopics(2, IN);
        kafka.createTopics(1, REPLAYED);
        Path config = SanitiserConfigFile.write(
                dir,
                kafka,
                IN,
                "sanitiser.http.port=0",
                "sanitiser.console.enabled=true",
                "sanitiser.console.token=" + TOKEN);
        app = SanitiserApplication.start(
                SanitiserConfigLoader.fromSystemEnvironment().load(config), true);
        base = "http://127.0.0.1:" + app.healthPort();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            producer.send(new ProducerRecord<>(IN, 0, bytes("k"), bytes("well-formed")))
                    .get();
            for (int i = 0; i < BAD.size(); i++) {
                producer.send(new ProducerRecord<>(IN, i % 2, bytes("k" + i), BAD.get(i)))
                        .get();
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (overview().path("topics").path(0).path("records").asLong() < BAD.size()) {
            assertThat(System.nanoTime())
                    .as("the console counted every dead letter in time")
                    .isLessThan(deadline);
            Thread.sleep(250);
        }
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    @Order(1)
    void theOverviewCountsWhatWasDeadLetteredByTheRuleTheValidatorFinds() throws Exception {
        Map<String, Integer> expected = new TreeMap<>();
        for (byte[] value : BAD) {
            expected.merge(Utf8Validator.firstError(value).orElseThrow().rule().name(), 1, Integer::sum);
        }

        JsonNode topic = overview().get("topics").get(0);

        assertThat(topic.get("topic").asText()).isEqualTo(DLQ);
        assertThat(topic.get("records").asInt()).isEqualTo(BAD.size());
        Map<String, Integer> byRule = new TreeMap<>();
        topic.get("byRule")
                .fields()
                .forEachRemaining(e -> byRule.put(e.getKey(), e.getValue().asInt()));
        assertThat(byRule).isEqualTo(expected).containsEntry("TRUNCATED_AT_END", 2);
        assertThat(topic.get("bySource").get(IN + "-0").asInt()
                        + topic.get("bySource").get(IN + "-1").asInt())
                .isEqualTo(BAD.size());

        HttpResponse<String> page = get("/console/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<tr data-key=\"SURROGATE\">");
    }

    @Test
    @Order(2)
    void everyPageForbidsInlineScriptAndNothingFromKafkaIsMarkup() throws Exception {
        HttpResponse<String> overview = get("/console/");
        assertThat(overview.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(
                        csp -> assertThat(csp).contains("script-src 'self'").doesNotContain("unsafe"));
        assertThat(overview.headers().firstValue("X-Frame-Options")).contains("DENY");

        JsonNode hostile = newest("INVALID_BYTE");
        HttpResponse<String> record = get(recordPath(hostile));

        assertThat(record.statusCode()).isEqualTo(200);
        assertThat(record.body())
                .contains("&lt;script&gt;\uFFFDalert(&#39;d")
                .doesNotContain("<script>\uFFFD")
                .doesNotContain("<script>alert");
        // Beyond the context window the payload is not shown (sanitiser.console.show.payload=false).
        assertThat(record.body()).doesNotContain("&lt;/script&gt;").doesNotContain("</script>alert");
    }

    @Test
    @Order(3)
    void aReplayNeedsTheTokenAndComesFromTheConsolesOwnPage() throws Exception {
        String form = "topic=" + DLQ + "&rule=SURROGATE&policy=replace&to=" + REPLAYED;

        HttpResponse<String> noToken = post(form, Optional.empty());
        HttpResponse<String> wrongToken = post(form + "&token=nope", Optional.empty());
        HttpResponse<String> otherOrigin = post(form + "&token=" + TOKEN, Optional.of("http://evil.example"));

        assertThat(noToken.statusCode()).isEqualTo(403);
        assertThat(wrongToken.statusCode()).isEqualTo(403);
        assertThat(wrongToken.body()).contains("Nothing was sent");
        assertThat(otherOrigin.statusCode()).isEqualTo(403);
        assertThat(read(REPLAYED)).isEmpty();
    }

    @Test
    @Order(4)
    void theConsoleAnswersOnlyOnItsAddress() throws Exception {
        Optional<InetAddress> other = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .filter(i -> {
                    try {
                        return i.isUp() && !i.isLoopback();
                    } catch (Exception e) {
                        return false;
                    }
                })
                .flatMap(i -> Collections.list(i.getInetAddresses()).stream())
                .filter(a -> a instanceof Inet4Address)
                .findFirst();
        assumeThat(other).as("a network interface besides loopback").isPresent();
        String host = other.get().getHostAddress();

        HttpResponse<String> console = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://" + host + ":" + app.healthPort() + "/console/"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> health = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://" + host + ":" + app.healthPort() + "/health/live"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(console.statusCode()).isEqualTo(403);
        assertThat(console.body()).contains("127.0.0.1 only");
        assertThat(health.statusCode()).as("the probes stay on every interface").isEqualTo(200);
    }

    @Test
    @Order(5)
    void inARealBrowserTheOverviewTheBytesAndAReplayThatLandsExactlyOnce() throws Exception {
        File browser = new File(System.getProperty("console.browser", "/usr/bin/chromium"));
        File driverBinary = new File(System.getProperty("console.chromedriver", "/usr/bin/chromedriver"));
        assumeThat(browser.canExecute() && driverBinary.canExecute())
                .as("chromium and chromium-driver (Debian packages) are installed; .ci/run installs them")
                .isTrue();
        ChromeOptions options = new ChromeOptions()
                .setBinary(browser)
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1400");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driverBinary)
                .usingAnyFreePort()
                .build();
        WebDriver driver = new ChromeDriver(service, options);
        Path shots = Path.of("target", "console-screenshots");
        Files.createDirectories(shots);
        try {
            driver.get(base + "/console/");
            WebElement section = driver.findElement(By.cssSelector("section.topic[data-topic='" + DLQ + "']"));
            assertThat(section.findElement(By.cssSelector(".total")).getText()).isEqualTo(String.valueOf(BAD.size()));
            assertThat(section.findElement(By.cssSelector("table.by-rule tr[data-key='SURROGATE'] .count"))
                            .getText())
                    .isEqualTo("1");
            assertThat(section.findElement(By.cssSelector("table.by-rule tr[data-key='TRUNCATED_AT_END'] .count"))
                            .getText())
                    .isEqualTo("2");
            screenshot(driver, shots.resolve("console-overview.png"));

            // The SURROGATE record: its three ill-formed bytes highlighted, nothing else.
            JsonNode surrogate = newest("SURROGATE");
            driver.get(base + recordPath(surrogate));
            List<String> highlighted = driver.findElements(By.cssSelector("table.hex .bad")).stream()
                    .map(WebElement::getText)
                    .toList();
            assertThat(highlighted).containsExactly("ed", "a0", "80");
            assertThat(driver.findElement(By.cssSelector("tr[data-policy='replace'] pre"))
                            .getText())
                    .contains("caf\uFFFD\uFFFD\uFFFD!");
            screenshot(driver, shots.resolve("console-record.png"));

            // The hostile record: its markup is text on the page, and runs nothing.
            driver.get(base + recordPath(newest("INVALID_BYTE")));
            assertThat(driver.findElement(By.cssSelector("pre.text")).getText()).startsWith("<script>\uFFFDalert('d");
            assertThat(driver.findElements(By.tagName("script"))).hasSize(1); // the console's own
            assertThat(alertShown(driver)).isFalse();

            // Replay through the page: preview, confirm with the token, and exactly once.
            driver.get(base + "/console/replay");
            driver.findElement(By.name("rule")).sendKeys("SURROGATE");
            driver.findElement(By.cssSelector("select[name='policy'] option[value='replace']"))
                    .click();
            driver.findElement(By.cssSelector("select[name='to'] option[value='" + REPLAYED + "']"))
                    .click(); // chosen from a list
            driver.findElement(By.id("preview")).click();
            awaitTitle(driver, "Replay preview");
            assertThat(tally(driver)).startsWith("Would send 1 of 1 chosen records from " + DLQ + " to " + REPLAYED);
            assertThat(read(REPLAYED)).as("a preview sends nothing").isEmpty();
            driver.findElement(By.id("token")).sendKeys(TOKEN);
            driver.findElement(By.id("confirm")).click();
            awaitTitle(driver, "Replay done");
            assertThat(tally(driver)).startsWith("Sent 1 of 1 chosen records");

            List<ConsumerRecord<byte[], byte[]>> replayed = read(REPLAYED);
            assertThat(replayed).hasSize(1);
            byte[] expected = Utf8Sanitiser.sanitise(BAD.get(1), 0, BAD.get(1).length, Policy.REPLACE, 0)
                    .output();
            assertThat(replayed.get(0).value()).isEqualTo(expected);
            assertThat(new String(
                            replayed.get(0)
                                    .headers()
                                    .lastHeader(HeaderNames.REPLAY_OFFSET)
                                    .value(),
                            StandardCharsets.UTF_8))
                    .isEqualTo(surrogate.get("offset").asText());

            // The same replay again sends nothing: the replay log has it.
            driver.get(base + "/console/replay?topic=" + DLQ + "&rule=SURROGATE&policy=replace&to=" + REPLAYED);
            assertThat(tally(driver)).startsWith("Would send 0 of 1").contains("1 replayed before");
            assertThat(read(REPLAYED)).hasSize(1);
        } finally {
            driver.quit();
        }
    }

    @Test
    @Order(6)
    void everyPagePassesAxeCoreAndTheRecordsListIsUsableByKeyboard() throws Exception {
        File browser = new File(System.getProperty("console.browser", "/usr/bin/chromium"));
        File driverBinary = new File(System.getProperty("console.chromedriver", "/usr/bin/chromedriver"));
        Path axe = Path.of(System.getProperty("console.axe", "target/axe/node_modules/axe-core/axe.min.js"));
        assumeThat(browser.canExecute() && driverBinary.canExecute())
                .as("chromium and chromium-driver (Debian packages) are installed; .ci/run installs them")
                .isTrue();
        assumeThat(Files.isReadable(axe))
                .as("axe-core is installed at %s: npm install --prefix app/target/axe axe-core@4 (.ci/run does)", axe)
                .isTrue();
        String axeSource = Files.readString(axe);
        ChromeOptions options = new ChromeOptions()
                .setBinary(browser)
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1400");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driverBinary)
                .usingAnyFreePort()
                .build();
        WebDriver driver = new ChromeDriver(service, options);
        Path shots = Path.of("target", "console-screenshots");
        Files.createDirectories(shots);
        JsonNode surrogate = newest("SURROGATE");
        try {
            List<String> pages = List.of(
                    "/console/",
                    "/console/?range=day",
                    recordPath(surrogate),
                    recordPath(newest("INVALID_BYTE")),
                    "/console/records?topic=" + DLQ,
                    "/console/records?topic=" + DLQ + "&rule=SURROGATE&size=25",
                    "/console/records?topic=" + DLQ + "&size=0",
                    "/console/replay",
                    "/console/replay?topic=" + DLQ + "&scope=picked&pick=0@0",
                    "/console/replay?topic=" + DLQ + "&rule=TRUNCATED_AT_END&policy=replace&to=" + REPLAYED,
                    "/console/no-such-page");
            for (String page : pages) {
                driver.get(base + page);
                assertThat(axeViolations(driver, axeSource))
                        .as("axe-core on %s", page)
                        .isEmpty();
            }

            // By keyboard: the filter's rule, Search, then the first record's box and Replay ticked.
            driver.get(base + "/console/records?topic=" + DLQ);
            driver.findElement(By.cssSelector("select[name='rule'] option[value='SURROGATE']"))
                    .click();
            driver.findElement(By.id("search")).sendKeys(Keys.ENTER);
            awaitTitle(driver, "Records of " + DLQ);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (driver.findElements(By.cssSelector("table.records tbody tr")).size() != 1) {
                assertThat(System.nanoTime()).as("the filtered page loaded").isLessThan(deadline);
                Thread.sleep(50);
            }
            assertThat(driver.findElement(By.cssSelector("table.records tbody tr td:nth-child(4)"))
                            .getText())
                    .isEqualTo("SURROGATE");
            assertThat(driver.findElement(By.cssSelector("table.records time")).getText())
                    .matches("\\d{4}-\\d{2}-\\d{2}T.*Z");
            assertThat(driver.findElement(By.cssSelector("table.records .ago")).getText())
                    .contains("ago");
            assertThat(driver.findElement(By.cssSelector("table.records td.replayed"))
                            .getText())
                    .as("replayed by the browser test before")
                    .isEqualTo("to " + REPLAYED);
            WebElement box = driver.findElement(By.cssSelector("input[name='pick']"));
            box.sendKeys(Keys.SPACE);
            assertThat(box.isSelected()).isTrue();
            screenshot(driver, shots.resolve("console-records.png"));
            driver.findElement(By.id("replay-picked")).sendKeys(Keys.ENTER);
            awaitTitle(driver, "Replay dead letters");
            assertThat(driver.findElement(By.tagName("main")).getText()).contains("Chosen: 1 ticked records");
        } finally {
            driver.quit();
        }
    }

    /**
     * Another tool's dead letter (Kafka Connect's headers, KIP-298) replayed from the records list
     * to the topic it was read from: ticked, "each record's source topic" chosen, previewed,
     * confirmed with the token, landing once in its source topic with its own headers and the
     * replay's, named in the audit line, and not sent again.
     */
    @Test
    @Order(7)
    void inARealBrowserAnotherToolsDeadLetterIsReplayedToItsSourceExactlyOnce() throws Exception {
        File browser = new File(System.getProperty("console.browser", "/usr/bin/chromium"));
        File driverBinary = new File(System.getProperty("console.chromedriver", "/usr/bin/chromedriver"));
        Path axe = Path.of(System.getProperty("console.axe", "target/axe/node_modules/axe-core/axe.min.js"));
        assumeThat(browser.canExecute() && driverBinary.canExecute())
                .as("chromium and chromium-driver (Debian packages) are installed; .ci/run installs them")
                .isTrue();
        String source = SharedKafka.unique("console-source");
        kafka.createTopics(1, source);
        byte[] key = bytes("sink-key");
        byte[] value = bytes("{not json");
        List<Header> headers = List.of(
                new RecordHeader("trace-id", bytes("t-17")),
                new RecordHeader("__connect.errors.topic", bytes(source)),
                new RecordHeader("__connect.errors.partition", bytes("0")),
                new RecordHeader("__connect.errors.offset", bytes("12")),
                new RecordHeader("__connect.errors.connector.name", bytes("sink")),
                new RecordHeader("__connect.errors.task.id", bytes("0")),
                new RecordHeader("__connect.errors.stage", bytes("VALUE_CONVERTER")),
                new RecordHeader("__connect.errors.class.name", bytes("org.apache.kafka.connect.json.JsonConverter")),
                new RecordHeader(
                        "__connect.errors.exception.class.name",
                        bytes("org.apache.kafka.connect.errors.DataException")),
                new RecordHeader("__connect.errors.exception.message", bytes("Unexpected character")));
        long offset;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            offset = producer.send(new ProducerRecord<>(DLQ, 0, null, key, value, headers))
                    .get()
                    .offset();
        }
        String pick = "0@" + offset;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (overview().path("topics").path(0).path("records").asLong() < BAD.size() + 1) {
            assertThat(System.nanoTime())
                    .as("the console counted the foreign record")
                    .isLessThan(deadline);
            Thread.sleep(250);
        }
        ChromeOptions options = new ChromeOptions()
                .setBinary(browser)
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1400");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driverBinary)
                .usingAnyFreePort()
                .build();
        WebDriver driver = new ChromeDriver(service, options);
        Path shots = Path.of("target", "console-screenshots");
        Files.createDirectories(shots);
        try {
            driver.get(base + "/console/records?topic=" + DLQ);
            WebElement row = driver.findElement(By.cssSelector("table.records tr[data-place='" + pick + "']"));
            assertThat(row.findElement(By.cssSelector("td:nth-child(4)")).getText())
                    .isEqualTo("kafka-connect: org.apache.kafka.connect.errors.DataException");
            assertThat(row.findElement(By.cssSelector("td:nth-child(5)")).getText())
                    .isEqualTo(source + "-0@12");
            row.findElement(By.cssSelector("input[name='pick']")).click();
            driver.findElement(By.id("replay-picked")).click();
            awaitTitle(driver, "Replay dead letters");
            driver.findElement(By.cssSelector("select[name='to'] option[value='" + ReplayRequest.TO_SOURCE + "']"))
                    .click();
            driver.findElement(By.id("preview")).click();
            awaitTitle(driver, "Replay preview");
            assertThat(tally(driver))
                    .startsWith("Would send 1 of 1 chosen records from " + DLQ + " to their source topics (as they"
                            + " are)");
            assertThat(driver.findElement(By.cssSelector("table.results tbody tr"))
                            .getText())
                    .isEqualTo(DLQ + "-" + pick + " send as it is to " + source);
            assertThat(driver.findElement(By.id("confirm")).getText())
                    .isEqualTo("Replay 1 records to their source topics");
            if (Files.isReadable(axe)) {
                assertThat(axeViolations(driver, Files.readString(axe)))
                        .as("axe-core on the preview of a replay to the source topics")
                        .isEmpty();
            }
            screenshot(driver, shots.resolve("console-replay-source.png"));
            assertThat(read(source)).as("a preview sends nothing").isEmpty();

            LogLines audit = LogLines.of(ConsoleHandler.class, Level.INFO);
            try (audit) {
                driver.findElement(By.id("token")).sendKeys(TOKEN);
                driver.findElement(By.id("confirm")).click();
                awaitTitle(driver, "Replay done");
            }
            assertThat(tally(driver)).startsWith("Sent 1 of 1 chosen records from " + DLQ + " to their source topics");
            assertThat(audit.lines())
                    .singleElement()
                    .asString()
                    .startsWith("INFO DLQ console: replayed 1 of 1 records from " + DLQ
                            + " to their source topics (as-is), asked from /127.0.0.1:");

            List<ConsumerRecord<byte[], byte[]>> replayed = read(source);
            assertThat(replayed).hasSize(1);
            ConsumerRecord<byte[], byte[]> out = replayed.get(0);
            assertThat(out.key()).isEqualTo(key);
            assertThat(out.value()).isEqualTo(value);
            Map<String, String> sent = new TreeMap<>();
            out.headers().forEach(h -> sent.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
            assertThat(sent)
                    .as("its own header and the replay's; Connect's error headers stay in the dead-letter topic")
                    .containsEntry("trace-id", "t-17")
                    .containsEntry(HeaderNames.REPLAY_TOPIC, DLQ)
                    .containsEntry(HeaderNames.REPLAY_PARTITION, "0")
                    .containsEntry(HeaderNames.REPLAY_OFFSET, Long.toString(offset))
                    .containsEntry(HeaderNames.REPLAY_COUNT, "1")
                    .doesNotContainKey("__connect.errors.topic");

            // The same replay again sends nothing: the replay log has it.
            driver.get(base + "/console/replay?topic=" + DLQ + "&scope=picked&pick=" + pick + "&to="
                    + URLEncoder.encode(ReplayRequest.TO_SOURCE, StandardCharsets.UTF_8));
            assertThat(tally(driver)).startsWith("Would send 0 of 1").contains("1 replayed before");
            assertThat(read(source)).hasSize(1);
        } finally {
            driver.quit();
        }
    }

    /** The violations axe-core finds on the page the browser shows, one line each. */
    private static List<String> axeViolations(WebDriver driver, String axeSource) throws Exception {
        JavascriptExecutor js = (JavascriptExecutor) driver;
        js.executeScript(axeSource);
        Object result = js.executeAsyncScript("var done = arguments[arguments.length - 1];"
                + "axe.run(document).then(function (r) { done(JSON.stringify(r.violations)); },"
                + " function (e) { done(JSON.stringify([{id: 'axe-error', help: String(e), nodes: []}])); });");
        List<String> violations = new ArrayList<>();
        for (JsonNode v : JSON.readTree(String.valueOf(result))) {
            List<String> targets = new ArrayList<>();
            v.path("nodes").forEach(n -> targets.add(n.path("target").toString()));
            violations.add(v.path("id").asText() + " (" + v.path("impact").asText() + "): "
                    + v.path("help").asText() + " at " + targets);
        }
        return violations;
    }

    /** Waits for the page a form's submission loads: a click returns before the browser has it. */
    private static void awaitTitle(WebDriver driver, String title) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!driver.getTitle().startsWith(title)) {
            assertThat(System.nanoTime())
                    .as("the page \"%s\" loaded; still on \"%s\"", title, driver.getTitle())
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** The replay page's tally line; the page's text when it has none, to see what went wrong. */
    private static String tally(WebDriver driver) {
        List<WebElement> tally = driver.findElements(By.id("tally"));
        assertThat(tally)
                .as(
                        "the replay page's tally, on %s:%n%s",
                        driver.getCurrentUrl(),
                        driver.findElement(By.tagName("body")).getText())
                .hasSize(1);
        return tally.get(0).getText();
    }

    private static boolean alertShown(WebDriver driver) {
        try {
            driver.switchTo().alert();
            return true;
        } catch (NoAlertPresentException e) {
            return false;
        }
    }

    private static void screenshot(WebDriver driver, Path to) throws Exception {
        Files.write(to, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    }

    /** The newest dead letter under {@code rule}, as the overview's JSON lists it. */
    private static JsonNode newest(String rule) throws Exception {
        for (JsonNode s : overview().get("topics").get(0).get("newest")) {
            if (s.get("rule").asText().equals(rule)) {
                return s;
            }
        }
        throw new AssertionError("no " + rule + " among the newest dead letters");
    }

    private static String recordPath(JsonNode s) {
        return "/console/record?topic=" + DLQ + "&partition="
                + s.get("partition").asInt() + "&offset=" + s.get("offset").asLong();
    }

    private static JsonNode overview() throws Exception {
        return JSON.readTree(get("/console/api/overview").body());
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String form, Optional<String> origin) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/console/replay"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        origin.ifPresent(o -> request.header("Origin", o));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Every committed record of the one-partition {@code topic}, read to its end. */
    private static List<ConsumerRecord<byte[], byte[]>> read(String topic) {
        Map<String, Object> config = kafka.consumerConfig(IN + "-reader");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        TopicPartition partition = new TopicPartition(topic, 0);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (consumer.position(partition) < end) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String s) {
                out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            } else {
                out.write((Integer) part);
            }
        }
        return out.toByteArray();
    }
}
