package dev.utf8sanitiser.serdes.conformance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The condition of {@link RequiresDockerImages}. It asks the Docker engine's HTTP API directly
 * (over its Unix socket, or plain TCP) whether each image is present, and if not, pulls it: an
 * engine that cannot reach a registry answers a pull with an error at once, so the test is skipped
 * in seconds. Testcontainers' own client is not used for this, because creating it (even to ask
 * whether Docker is available) starts its checks and resource reaper, which pull images of their
 * own with minutes of retries.
 */
final class DockerImagesCondition implements ExecutionCondition {
    /** A pull that is really under way may take this long before the test gives up on it. */
    private static final Duration PULL_LIMIT = Duration.ofMinutes(10);
    /** A silent engine (neither data nor an error) is taken as unable to pull after this. */
    private static final Duration SILENCE_LIMIT = Duration.ofSeconds(30);

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        List<String> images = AnnotationSupport.findAnnotation(context.getElement(), RequiresDockerImages.class)
                .map(annotation -> List.of(annotation.value()))
                .orElse(List.of());
        if (images.isEmpty()) {
            return ConditionEvaluationResult.enabled("no images required");
        }
        DockerEngine engine;
        try {
            engine = DockerEngine.at(dockerHost());
            engine.ping();
        } catch (IllegalArgumentException | IOException e) {
            return ConditionEvaluationResult.disabled("no Docker engine to use: " + e.getMessage());
        }
        for (String image : withTestcontainersImages(images)) {
            try {
                if (!engine.hasImage(image)) {
                    engine.pull(image);
                }
            } catch (IOException e) {
                return ConditionEvaluationResult.disabled("Docker image " + image
                        + " is not present and cannot be pulled (" + e.getMessage()
                        + "); pull or load it to run this test");
            }
        }
        return ConditionEvaluationResult.enabled("every image is present: " + images);
    }

    /**
     * Where the engine listens, found as Docker's own client finds it ({@code DOCKER_HOST}, else the
     * default socket). Not from Testcontainers: even its {@code isDockerAvailable()} starts the
     * resource reaper, whose image it then pulls with minutes of retries.
     */
    private static URI dockerHost() {
        String configured = System.getenv("DOCKER_HOST");
        return URI.create(configured == null || configured.isBlank() ? "unix:///var/run/docker.sock" : configured);
    }

    /**
     * The images Testcontainers starts itself: its resource reaper ({@code RyukContainer}) and the
     * tiny image of its start-up checks ({@code DockerClientFactory}). Its configuration API names
     * them without the tag it really uses, so they are pinned here for the Testcontainers version of
     * the parent POM; {@code DockerImagesConditionTest} fails when that version uses others.
     */
    static final String RYUK_IMAGE = "testcontainers/ryuk:0.14.0";

    static final String TINY_IMAGE = "alpine:3.17";

    /** The test's images and those Testcontainers will start. */
    private static Set<String> withTestcontainersImages(List<String> images) {
        Set<String> all = new LinkedHashSet<>(images);
        if (!"true".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
            all.add(RYUK_IMAGE);
        }
        all.add(TINY_IMAGE);
        return all;
    }

    /** The few calls of the Docker Engine API this needs, as HTTP/1.0 (no chunking, EOF ends a body). */
    private static final class DockerEngine {
        private final SocketAddress address;

        private DockerEngine(SocketAddress address) {
            this.address = address;
        }

        static DockerEngine at(URI host) {
            switch (String.valueOf(host.getScheme())) {
                case "unix":
                    return new DockerEngine(UnixDomainSocketAddress.of(Path.of(host.getPath())));
                case "tcp":
                case "http":
                    return new DockerEngine(new InetSocketAddress(host.getHost(), host.getPort()));
                default:
                    throw new IllegalArgumentException(
                            "cannot check images on a Docker engine at " + host + " (TLS or another transport)");
            }
        }

        void ping() throws IOException {
            Response response = exchange("GET", "/_ping", Duration.ofSeconds(10));
            if (response.status != 200) {
                throw new IOException("the engine answered " + response.status + " to a ping");
            }
        }

        boolean hasImage(String image) throws IOException {
            Response response = exchange("GET", "/images/" + image + "/json", Duration.ofSeconds(10));
            if (response.status == 200) {
                return true;
            }
            if (response.status == 404) {
                return false;
            }
            throw new IOException(
                    "the engine answered " + response.status + " to an image inspection: " + response.bodyStart());
        }

        void pull(String image) throws IOException {
            int colon = image.lastIndexOf(':');
            boolean tagged = colon > image.lastIndexOf('/');
            String query = "fromImage=" + encode(tagged ? image.substring(0, colon) : image) + "&tag="
                    + encode(tagged ? image.substring(colon + 1) : "latest");
            ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "docker-pull " + image);
                thread.setDaemon(true);
                return thread;
            });
            try {
                Future<Response> pull =
                        executor.submit(() -> exchange("POST", "/images/create?" + query, SILENCE_LIMIT));
                Response response = pull.get(PULL_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
                // The engine reports a failed pull either as an error status or inside a 200 stream.
                if (response.status != 200 || response.body.contains("\"error")) {
                    throw new IOException(response.bodyStart());
                }
                if (!hasImage(image)) {
                    throw new IOException("the pull ended but the image is still missing");
                }
            } catch (TimeoutException e) {
                throw new IOException("the pull did not finish within " + PULL_LIMIT.toMinutes() + " minutes");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            } finally {
                executor.shutdownNow();
            }
        }

        private Response exchange(String method, String path, Duration silence) throws IOException {
            String request = method + " " + path + " HTTP/1.0\r\nHost: docker\r\nContent-Length: 0\r\n\r\n";
            ProtocolFamily family = address instanceof UnixDomainSocketAddress
                    ? StandardProtocolFamily.UNIX
                    : StandardProtocolFamily.INET;
            try (SocketChannel channel = SocketChannel.open(family)) {
                channel.connect(address);
                Channels.newOutputStream(channel).write(request.getBytes(StandardCharsets.US_ASCII));
                return Response.read(Channels.newInputStream(channel), channel, silence);
            }
        }

        private static String encode(String part) {
            return URLEncoder.encode(part, StandardCharsets.UTF_8);
        }
    }

    /** A status and the body, read until the engine closes the connection. */
    private record Response(int status, String body) {
        static Response read(InputStream in, SocketChannel channel, Duration silence) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            // A blocking channel's stream has no read timeout: a watchdog closes a silent channel.
            SilenceWatchdog watchdog = new SilenceWatchdog(channel, silence);
            try {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    watchdog.heard();
                    if (bytes.size() < (1 << 20)) {
                        bytes.write(buffer, 0, n);
                    }
                }
            } catch (IOException e) {
                if (watchdog.fired()) {
                    throw new SocketTimeoutException("the engine said nothing for " + silence.toSeconds() + " s");
                }
                throw e;
            } finally {
                watchdog.stop();
            }
            String text = bytes.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            if (!text.startsWith("HTTP/") || end < 0) {
                throw new IOException("not an HTTP answer from the Docker engine");
            }
            int status = Integer.parseInt(text.substring(9, 12));
            return new Response(status, text.substring(end + 4));
        }

        String bodyStart() {
            String line = body.strip().replace('\n', ' ');
            return line.length() > 300 ? line.substring(0, 300) + "..." : line;
        }
    }

    /** Closes a channel that has been silent for too long. */
    private static final class SilenceWatchdog {
        private final Thread thread;
        private volatile long lastHeard = System.nanoTime();
        private volatile boolean fired;
        private volatile boolean stopped;

        SilenceWatchdog(SocketChannel channel, Duration silence) {
            thread = new Thread(
                    () -> {
                        while (!stopped) {
                            if (System.nanoTime() - lastHeard > silence.toNanos()) {
                                fired = true;
                                closeQuietly(channel);
                                return;
                            }
                            try {
                                Thread.sleep(200);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "docker-watchdog");
            thread.setDaemon(true);
            thread.start();
        }

        void heard() {
            lastHeard = System.nanoTime();
        }

        boolean fired() {
            return fired;
        }

        void stop() {
            stopped = true;
            thread.interrupt();
        }

        private static void closeQuietly(SocketChannel channel) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing is all the watchdog can do
            }
        }
    }
}
