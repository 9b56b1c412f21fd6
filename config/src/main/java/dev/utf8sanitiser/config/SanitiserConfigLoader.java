package dev.utf8sanitiser.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds a {@link SanitiserConfig} from a properties file and the environment: the file first, then
 * the {@link EnvironmentOverrides} on top. Every problem, in the file, in the environment or between
 * keys, is reported at once in one {@link SanitiserConfigException}; a message about a value that
 * came from the environment names the variable.
 *
 * <pre>{@code
 * SanitiserConfig config = SanitiserConfigLoader.fromSystemEnvironment().load(Path.of("sanitiser.properties"));
 * }</pre>
 */
public final class SanitiserConfigLoader {
    private final Map<String, String> environment;
    private final Set<Requirement> requirements;

    private SanitiserConfigLoader(Map<String, String> environment, Set<Requirement> requirements) {
        this.environment = Map.copyOf(environment);
        this.requirements = Set.copyOf(requirements);
    }

    /** A loader that reads this process's environment and checks every {@link Requirement}. */
    public static SanitiserConfigLoader fromSystemEnvironment() {
        return withEnvironment(System.getenv());
    }

    /** A loader that reads {@code environment} instead of the process's, and checks every requirement. */
    public static SanitiserConfigLoader withEnvironment(Map<String, String> environment) {
        return new SanitiserConfigLoader(environment, Requirement.all());
    }

    /** This loader, checking these requirements instead (see {@link Requirement#embedded()}). */
    public SanitiserConfigLoader requiring(Set<Requirement> requirements) {
        return new SanitiserConfigLoader(environment, requirements);
    }

    /**
     * The configuration in {@code file} (UTF-8 properties) with the environment's overrides.
     *
     * @throws SanitiserConfigException with every problem found, or the one reason the file cannot be
     *     read
     */
    public SanitiserConfig load(Path file) {
        return load(readProperties(file));
    }

    /**
     * The configuration in {@code properties} (from wherever: a file read elsewhere, command line
     * options, a test) with the environment's overrides.
     *
     * @throws SanitiserConfigException with every problem found
     */
    public SanitiserConfig load(Map<String, ?> properties) {
        EnvironmentOverrides overrides = EnvironmentOverrides.from(environment);
        Map<String, Object> merged = new LinkedHashMap<>(properties);
        merged.putAll(overrides.properties());
        List<ConfigProblem> problems = new ArrayList<>();
        for (ConfigProblem problem : SanitiserConfig.validate(merged, requirements)) {
            problems.add(overrides
                    .variableSetting(problem.key())
                    .map(variable -> problem.noting("from environment variable " + variable))
                    .orElse(problem));
        }
        problems.addAll(overrides.problems());
        if (!problems.isEmpty()) {
            throw new SanitiserConfigException(problems);
        }
        return new SanitiserConfig(merged, requirements);
    }

    /**
     * The properties in {@code file}, read as UTF-8 (not ISO-8859-1, which {@link
     * Properties#load(java.io.InputStream)} assumes), sorted by key.
     *
     * @throws SanitiserConfigException with one problem that names the file and why it cannot be read
     */
    public static Map<String, String> readProperties(Path file) {
        Objects.requireNonNull(file, "file");
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (NoSuchFileException e) {
            throw unreadable(file, "no such file");
        } catch (AccessDeniedException e) {
            throw unreadable(file, "permission denied");
        } catch (CharacterCodingException e) {
            throw unreadable(file, "not well-formed UTF-8");
        } catch (IOException e) {
            throw unreadable(
                    file,
                    Objects.requireNonNullElse(e.getMessage(), e.getClass().getSimpleName()));
        } catch (IllegalArgumentException e) {
            throw unreadable(file, e.getMessage()); // a malformed backslash-u escape
        }
        Map<String, String> map = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
        return map;
    }

    private static SanitiserConfigException unreadable(Path file, String reason) {
        return new SanitiserConfigException(
                List.of(new ConfigProblem("", "Cannot read configuration file " + file + ": " + reason)));
    }
}
