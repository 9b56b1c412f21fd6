package dev.utf8sanitiser.config;

import static dev.utf8sanitiser.config.SanitiserConfig.PROVISIONAL;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.types.Password;

/**
 * The keys of the DLQ console (docs/operations.md), defined beside {@link ConsoleSettings}, which
 * parses them, and composed into {@link SanitiserConfig}'s definitions in their own group.
 */
public final class ConsoleKeys {
    private ConsoleKeys() {}

    static final String CONSOLE_GROUP = "Console";

    /** {@code sanitiser.console.enabled} */
    public static final String CONSOLE_ENABLED_CONFIG = "sanitiser.console.enabled";

    private static final String CONSOLE_ENABLED_DOC =
            "Serve the DLQ console under `/console` on `run`'s HTTP port (`sanitiser.http.port`). `dlq serve` "
                    + "serves it whatever this says." + PROVISIONAL;

    /** {@code sanitiser.console.address} */
    public static final String CONSOLE_ADDRESS_CONFIG = "sanitiser.console.address";

    private static final String CONSOLE_ADDRESS_DOC =
            "The local address the console answers on. `dlq serve` binds to it. `run`'s HTTP port serves "
                    + "the probes and metrics on every interface, so there the console answers only requests "
                    + "that arrive at this address (others get 403). The default, loopback, keeps the console "
                    + "to the machine (or the pod: reach it with `kubectl port-forward`); `0.0.0.0` opens it "
                    + "to every interface." + PROVISIONAL;

    /** {@code sanitiser.console.allowed.hosts} */
    public static final String CONSOLE_ALLOWED_HOSTS_CONFIG = "sanitiser.console.allowed.hosts";

    private static final String CONSOLE_ALLOWED_HOSTS_DOC =
            "The host names the console answers to: a request whose `Host` header names another host gets "
                    + "421, so that a web page that rebinds its own DNS name to the console's address cannot "
                    + "read it through a browser. `sanitiser.console.address` is allowed too unless it is a "
                    + "wildcard (`0.0.0.0`, `::`); add the names and addresses the console is reached by "
                    + "(IPv6 in brackets). The probes and `/metrics` answer to any `Host`." + PROVISIONAL;

    /** {@code sanitiser.console.token} */
    public static final String CONSOLE_TOKEN_CONFIG = "sanitiser.console.token";

    private static final String CONSOLE_TOKEN_DOC =
            "The token the console asks for before anything that writes (a replay). Without one (and "
                    + "without `sanitiser.console.token.file`) the console only reads. Best set from the "
                    + "environment (`SANITISER_CONSOLE_TOKEN`) or a file; it is never logged." + PROVISIONAL;

    /** {@code sanitiser.console.token.file} */
    public static final String CONSOLE_TOKEN_FILE_CONFIG = "sanitiser.console.token.file";

    private static final String CONSOLE_TOKEN_FILE_DOC =
            "A file whose first line is the console's token, such as a mounted Kubernetes secret; read when "
                    + "the console starts. Not with `sanitiser.console.token`." + PROVISIONAL;

    /** {@code sanitiser.console.show.payload} */
    public static final String CONSOLE_SHOW_PAYLOAD_CONFIG = "sanitiser.console.show.payload";

    private static final String CONSOLE_SHOW_PAYLOAD_DOC =
            "Show a dead letter's whole key, value or header in the console. Off: only the bytes within "
                    + "`sanitiser.dlq.context.bytes` of the ill-formed run, which the record's own "
                    + "`__utf8.context` header shows anyway." + PROVISIONAL;

    static void define(ConfigDef def, GroupOrder order) {
        def.define(
                        CONSOLE_ENABLED_CONFIG,
                        Type.BOOLEAN,
                        false,
                        Importance.LOW,
                        CONSOLE_ENABLED_DOC,
                        CONSOLE_GROUP,
                        order.next(CONSOLE_GROUP),
                        Width.SHORT,
                        "Console")
                .define(
                        CONSOLE_ADDRESS_CONFIG,
                        Type.STRING,
                        "127.0.0.1",
                        Validators.ipAddress(),
                        Importance.LOW,
                        CONSOLE_ADDRESS_DOC,
                        CONSOLE_GROUP,
                        order.next(CONSOLE_GROUP),
                        Width.MEDIUM,
                        "Console address")
                .define(
                        CONSOLE_ALLOWED_HOSTS_CONFIG,
                        Type.LIST,
                        "localhost,127.0.0.1,[::1]",
                        Validators.hostNames(),
                        Importance.LOW,
                        CONSOLE_ALLOWED_HOSTS_DOC,
                        CONSOLE_GROUP,
                        order.next(CONSOLE_GROUP),
                        Width.LONG,
                        "Console host names")
                .define(
                        CONSOLE_TOKEN_CONFIG,
                        Type.PASSWORD,
                        null,
                        Importance.LOW,
                        CONSOLE_TOKEN_DOC,
                        CONSOLE_GROUP,
                        order.next(CONSOLE_GROUP),
                        Width.MEDIUM,
                        "Console token")
                .define(
                        CONSOLE_TOKEN_FILE_CONFIG,
                        Type.STRING,
                        null,
                        Validators.readableFile(),
                        Importance.LOW,
                        CONSOLE_TOKEN_FILE_DOC,
                        CONSOLE_GROUP,
                        order.next(CONSOLE_GROUP),
                        Width.LONG,
                        "Console token file")
                .define(
                        CONSOLE_SHOW_PAYLOAD_CONFIG,
                        Type.BOOLEAN,
                        false,
                        Importance.LOW,
                        CONSOLE_SHOW_PAYLOAD_DOC,
                        CONSOLE_GROUP,
                        order.next(CONSOLE_GROUP),
                        Width.SHORT,
                        "Console shows payloads");
    }

    /**
     * The token and the token file are two ways to say one thing: one of them, not both; and {@code
     * run} serves the console on its HTTP port, so the port must be on.
     */
    static void crossCheck(Map<String, Object> parsed, List<ConfigProblem> problems) {
        if (Boolean.TRUE.equals(parsed.get(CONSOLE_ENABLED_CONFIG))
                && Integer.valueOf(-1).equals(parsed.get(SanitiserConfig.HTTP_PORT_CONFIG))) {
            problems.add(new ConfigProblem(
                    CONSOLE_ENABLED_CONFIG,
                    CONSOLE_ENABLED_CONFIG + " serves the console on the HTTP port, which "
                            + SanitiserConfig.HTTP_PORT_CONFIG + "=-1 turns off"));
        }
        Object token = parsed.get(CONSOLE_TOKEN_CONFIG);
        Object file = parsed.get(CONSOLE_TOKEN_FILE_CONFIG);
        boolean hasToken = token instanceof Password p && !p.value().isBlank();
        boolean hasFile = file instanceof String f && !f.isBlank();
        if (hasToken && hasFile) {
            problems.add(new ConfigProblem(
                    CONSOLE_TOKEN_FILE_CONFIG,
                    "Set " + CONSOLE_TOKEN_CONFIG + " or " + CONSOLE_TOKEN_FILE_CONFIG + ", not both"));
        }
    }
}
