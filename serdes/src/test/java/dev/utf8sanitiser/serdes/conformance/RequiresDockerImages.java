package dev.utf8sanitiser.serdes.conformance;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a Testcontainers test class only where a Docker engine runs and every image it needs (these,
 * and Testcontainers' own) is present or can be pulled; otherwise skips it with the reason, in
 * seconds. Testcontainers alone would retry a pull that cannot succeed for minutes.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(DockerImagesCondition.class)
@interface RequiresDockerImages {
    /** Image names as Docker spells them, e.g. {@code apache/kafka:3.9.0}. */
    String[] value();
}
