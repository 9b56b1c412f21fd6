package dev.utf8sanitiser.config;

import dev.utf8sanitiser.core.content.ContentAction;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The {@link ConfigDef.Validator}s of {@link SanitiserConfig}. Each throws one {@link
 * ConfigException} per bad value, in Kafka's form ({@code Invalid value V for configuration K:
 * reason}), with every reason for that value in it; each {@code toString} is the "valid values"
 * column of docs/configuration.md.
 */
final class Validators {
    private Validators() {}

    /** One of {@code names}, ignoring case. */
    static ConfigDef.Validator oneOf(String... names) {
        List<String> valid = List.of(names);
        String listed = String.join(", ", valid);
        return validator(listed, (name, value) -> {
            if (!(value instanceof String s) || valid.stream().noneMatch(s::equalsIgnoreCase)) {
                throw new ConfigException(name, value, "expected one of " + listed);
            }
        });
    }

    /** A list of legal topic names, none twice; may be empty. */
    static ConfigDef.Validator topicList() {
        return validator("comma-separated topic names", (name, value) -> {
            List<String> problems = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (Object element : elements(name, value)) {
                String topic = String.valueOf(element);
                TopicNames.problem(topic).ifPresentOrElse(problems::add, () -> {
                    if (!seen.add(topic)) {
                        problems.add("'" + topic + "' is listed twice");
                    }
                });
            }
            if (!problems.isEmpty()) {
                throw new ConfigException(name, join((List<?>) value), String.join("; ", problems));
            }
        });
    }

    /** A list of host names or IP addresses (IPv6 in brackets), without ports; may be empty. */
    static ConfigDef.Validator hostNames() {
        return validator("host names or IP addresses, IPv6 in brackets", (name, value) -> {
            for (Object element : elements(name, value)) {
                String host = String.valueOf(element);
                boolean v6 = host.startsWith("[")
                        && host.endsWith("]")
                        && isIpAddressLiteral(host.substring(1, host.length() - 1));
                boolean other = host.matches("[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?");
                if (!v6 && !other) {
                    throw new ConfigException(
                            name, join((List<?>) value), "'" + host + "' is not a host name, nor an IP address");
                }
            }
        });
    }

    /** Absent (null or empty), or a Java regular expression that compiles. */
    static ConfigDef.Validator regex() {
        return validator("a Java regular expression", (name, value) -> {
            if (isAbsent(value)) {
                return;
            }
            String regex = (String) value;
            try {
                Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new ConfigException(
                        name, regex, "not a regular expression: " + e.getDescription() + " near index " + e.getIndex());
            }
        });
    }

    /** A list of header names, none empty or twice; may be empty. */
    static ConfigDef.Validator headerNames() {
        return validator("comma-separated header names", (name, value) -> {
            List<String> problems = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (Object element : elements(name, value)) {
                String header = String.valueOf(element);
                if (header.isEmpty()) {
                    problems.add("empty header name");
                } else if (!seen.add(header)) {
                    problems.add("'" + header + "' is listed twice");
                }
            }
            if (!problems.isEmpty()) {
                throw new ConfigException(name, join((List<?>) value), String.join("; ", problems));
            }
        });
    }

    /**
     * Dotted field paths ({@code customer.name}), none twice; may be empty. No part is empty, and
     * none holds brackets or braces: arrays and maps are looked through, so {@code lines.sku} already
     * means the {@code sku} of every element.
     */
    static ConfigDef.Validator fieldPaths() {
        return validator("comma-separated dotted field paths, e.g. customer.name,lines.sku", (name, value) -> {
            List<String> problems = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (Object element : elements(name, value)) {
                String path = String.valueOf(element);
                if (path.isEmpty()) {
                    problems.add("empty field path");
                } else if (path.chars().anyMatch(c -> c == '[' || c == ']' || c == '{' || c == '}')) {
                    String dotted = path.replaceAll("\\[[^\\]]*\\]|\\{[^}]*\\}", "");
                    problems.add("'" + path + "': write " + dotted
                            + " (arrays and maps are looked through: every element is checked)");
                } else if (Arrays.asList(path.split("\\.", -1)).contains("")) {
                    problems.add("'" + path + "' has an empty field name");
                } else if (!seen.add(path)) {
                    problems.add("'" + path + "' is listed twice");
                }
            }
            if (!problems.isEmpty()) {
                throw new ConfigException(name, join((List<?>) value), String.join("; ", problems));
            }
        });
    }

    /** A {@link TopicTemplate} for output: anything but {@code ${topic}} alone, the input topic itself. */
    static ConfigDef.Validator outputTemplate() {
        return validator(
                "a topic name; " + TopicTemplate.PLACEHOLDER + " stands for the input topic", (name, value) -> {
                    if (value == null) {
                        throw new ConfigException(name, null, "a topic name or template is required");
                    }
                    TopicTemplate template;
                    try {
                        template = TopicTemplate.parse((String) value);
                    } catch (IllegalArgumentException e) {
                        throw new ConfigException(name, value, e.getMessage());
                    }
                    if (template.isIdentity()) {
                        throw new ConfigException(
                                name, value, "would write every record back to the topic it was read from");
                    }
                });
    }

    /** {@code RULE:action} pairs, see {@link ContentRulesSetting#parse}. */
    static ConfigDef.Validator contentRules() {
        return validator(
                "comma-separated RULE:action pairs; rules: " + ContentRulesSetting.ruleNames() + "; actions: "
                        + ContentRulesSetting.actionNames(EnumSet.allOf(ContentAction.class)),
                (name, value) -> {
                    List<String> entries =
                            elements(name, value).stream().map(String::valueOf).toList();
                    try {
                        ContentRulesSetting.parse(entries);
                    } catch (IllegalArgumentException e) {
                        throw new ConfigException(name, String.join(",", entries), e.getMessage());
                    }
                });
    }

    /**
     * Absent (null or empty), or comma-separated absolute {@code http}, {@code https} (or, for tests,
     * {@code mock}) URLs.
     */
    static ConfigDef.Validator registryUrls() {
        return validator("comma-separated http or https URLs", (name, value) -> {
            if (isAbsent(value)) {
                return;
            }
            List<String> problems = new ArrayList<>();
            for (String url : ((String) value).split("\\s*,\\s*", -1)) {
                try {
                    URI uri = new URI(url);
                    String scheme =
                            uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
                    if (!Set.of("http", "https", "mock").contains(scheme)) {
                        problems.add("'" + redact(url) + "' is not an http or https URL");
                    } else if (uri.getHost() == null && !scheme.equals("mock")) {
                        problems.add("'" + redact(url) + "' has no host");
                    }
                } catch (URISyntaxException e) {
                    problems.add("'" + redact(url) + "' is not a URL: " + e.getReason());
                }
            }
            if (!problems.isEmpty()) {
                throw new ConfigException(name, redact((String) value), String.join("; ", problems));
            }
        });
    }

    /**
     * Absent, or {@code user:password} with a non-empty user. The value is a password, so messages
     * show it as {@code [hidden]}.
     */
    static ConfigDef.Validator userInfo() {
        return validator("user:password", (name, value) -> {
            if (value == null) {
                return;
            }
            String userInfo = ((Password) value).value();
            if (!userInfo.isEmpty() && userInfo.indexOf(':') < 1) {
                throw new ConfigException(name, value, "expected user:password");
            }
        });
    }

    /** Absent (null or empty), or the path of a regular file that this process can read. */
    static ConfigDef.Validator readableFile() {
        return validator("the path of a readable file", (name, value) -> {
            if (isAbsent(value)) {
                return;
            }
            Path path;
            try {
                path = Path.of((String) value);
            } catch (InvalidPathException e) {
                throw new ConfigException(name, value, "not a file path: " + e.getReason());
            }
            if (!Files.exists(path)) {
                throw new ConfigException(name, value, "no such file");
            }
            if (!Files.isRegularFile(path)) {
                throw new ConfigException(name, value, "not a regular file");
            }
            if (!Files.isReadable(path)) {
                throw new ConfigException(name, value, "permission denied");
            }
        });
    }

    /**
     * A literal IPv4 or IPv6 address ({@code 127.0.0.1}, {@code 0.0.0.0}, {@code ::1}): a host name
     * would need a lookup, and which interface it names could change under a running process.
     */
    static ConfigDef.Validator ipAddress() {
        return validator("an IP address such as 127.0.0.1, ::1 or 0.0.0.0", (name, value) -> {
            if (!(value instanceof String s) || !isIpAddressLiteral(s)) {
                throw new ConfigException(name, value, "expected an IP address such as 127.0.0.1, ::1 or 0.0.0.0");
            }
        });
    }

    static boolean isIpAddressLiteral(String s) {
        boolean v4 = s.matches("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
        boolean v6 = s.contains(":") && s.matches("[0-9A-Fa-f:.]+");
        if (!v4 && !v6) {
            return false;
        }
        try {
            InetAddress.getByName(s); // a literal: parsed, never looked up
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** {@code check} (ignoring case) or empty, Kafka's spelling for "no host name check". */
    static ConfigDef.Validator endpointIdentification(String check) {
        return validator(check + ", or empty for none", (name, value) -> {
            if (!(value instanceof String s) || !(s.isEmpty() || s.equalsIgnoreCase(check))) {
                throw new ConfigException(name, value, "expected " + check + " or nothing");
            }
        });
    }

    /** {@code url} with any user information ({@code user:password@}) hidden, safe to print. */
    static String redact(String url) {
        return url.replaceAll("(?<=//)[^/@,]*@", "***@");
    }

    /**
     * Whether an optional string is unset: null, or empty so that an environment variable can blank
     * out a value from the file.
     */
    static boolean isAbsent(Object value) {
        return value == null || ((String) value).isEmpty();
    }

    private static String join(List<?> values) {
        return String.join(",", values.stream().map(String::valueOf).toList());
    }

    /** The elements of a LIST value, which {@link ConfigDef#parseType} leaves as a list or null. */
    private static List<?> elements(String name, Object value) {
        if (value == null) {
            throw new ConfigException(name, null, "a list is required (it may be empty)");
        }
        return (List<?>) value;
    }

    private static ConfigDef.Validator validator(String description, BiConsumer<String, Object> check) {
        return ConfigDef.LambdaValidator.with(check, () -> description);
    }
}
