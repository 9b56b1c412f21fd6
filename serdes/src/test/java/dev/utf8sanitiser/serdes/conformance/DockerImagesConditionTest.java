package dev.utf8sanitiser.serdes.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/** The images the condition checks are the ones this Testcontainers version really starts. */
class DockerImagesConditionTest {

    @Test
    void pinsTheResourceReaperImageOfThisTestcontainersVersion() throws IOException {
        assertThat(classConstants("org/testcontainers/utility/RyukContainer.class"))
                .contains(DockerImagesCondition.RYUK_IMAGE);
    }

    @Test
    void pinsTheTinyImageOfThisTestcontainersVersion() throws IOException {
        assertThat(classConstants("org/testcontainers/DockerClientFactory.class"))
                .contains(DockerImagesCondition.TINY_IMAGE);
    }

    /** The class file as Latin-1 text: its constant pool holds the image names as plain strings. */
    private static String classConstants(String resource) throws IOException {
        try (InputStream in = DockerClientFactory.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
