package dev.utf8sanitiser.config;

import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_ADDRESS_CONFIG;
import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_ALLOWED_HOSTS_CONFIG;
import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_ENABLED_CONFIG;
import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_SHOW_PAYLOAD_CONFIG;
import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_TOKEN_CONFIG;
import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_TOKEN_FILE_CONFIG;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.types.Password;

/**
 * The DLQ console's settings ({@link ConsoleKeys}). The token stays a {@link Password}, whose
 * {@code toString} hides it, from the file or the key to the comparison.
 *
 * @param address the literal IP address the console answers on
 * @param allowedHosts the host names a request's {@code Host} header may name, lower case, IPv6
 *     addresses in brackets: {@code sanitiser.console.allowed.hosts} and the address unless a wildcard
 * @param contextBytes how many bytes either side of an ill-formed run a page shows without {@code
 *     showPayload} ({@code sanitiser.dlq.context.bytes})
 */
public record ConsoleSettings(
        boolean enabled,
        String address,
        Set<String> allowedHosts,
        Optional<Password> token,
        Optional<Path> tokenFile,
        boolean showPayload,
        int contextBytes) {

    static ConsoleSettings of(SanitiserConfig config) {
        Password token = config.getPassword(CONSOLE_TOKEN_CONFIG);
        String file = config.getString(CONSOLE_TOKEN_FILE_CONFIG);
        String address = config.getString(CONSOLE_ADDRESS_CONFIG);
        return new ConsoleSettings(
                config.getBoolean(CONSOLE_ENABLED_CONFIG),
                address,
                allowedHosts(config.getList(CONSOLE_ALLOWED_HOSTS_CONFIG), address),
                Optional.ofNullable(token).filter(t -> !t.value().isBlank()),
                Optional.ofNullable(file).filter(f -> !f.isBlank()).map(Path::of),
                config.getBoolean(CONSOLE_SHOW_PAYLOAD_CONFIG),
                config.dlqContextBytes());
    }

    public ConsoleSettings {
        allowedHosts = Set.copyOf(allowedHosts);
    }

    private static Set<String> allowedHosts(List<String> listed, String address) {
        Set<String> hosts = new LinkedHashSet<>();
        listed.forEach(host -> hosts.add(host.toLowerCase(Locale.ROOT)));
        try {
            if (!InetAddress.getByName(address).isAnyLocalAddress()) { // a literal, never looked up
                hosts.add((address.contains(":") ? "[" + address + "]" : address).toLowerCase(Locale.ROOT));
            }
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(CONSOLE_ADDRESS_CONFIG + " is not an IP address: " + address, e);
        }
        return hosts;
    }

    /**
     * The token that allows a replay, from the key or the first line of the file (read now, so that
     * a rotated secret is picked up by a restart); empty when the console only reads.
     *
     * @throws UncheckedIOException the file cannot be read, or its first line is blank
     */
    public Optional<Password> writeToken() {
        if (token.isPresent()) {
            return token;
        }
        if (tokenFile.isEmpty()) {
            return Optional.empty();
        }
        try {
            List<String> lines = Files.readAllLines(tokenFile.get(), StandardCharsets.UTF_8);
            String first = lines.isEmpty() ? "" : lines.get(0).strip();
            if (first.isEmpty()) {
                throw new IOException("its first line is empty");
            }
            return Optional.of(new Password(first));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the console token from " + tokenFile.get() + " (" + CONSOLE_TOKEN_FILE_CONFIG + "): "
                            + e.getMessage(),
                    e);
        }
    }
}
