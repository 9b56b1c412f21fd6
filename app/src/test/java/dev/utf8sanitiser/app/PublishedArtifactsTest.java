package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The BOM and the example application are written as users see them, without the parent POM, so
 * nothing keeps their versions in step but this: the BOM names every published module (those with
 * {@code publish.skip=false}) and the plugin archive, at the project's version; the example builds
 * on the project's version and Kafka (docs/publishing.md).
 */
class PublishedArtifactsTest {
    private static final Path REPO = Path.of(System.getProperty("repo.dir", ".."));

    @Test
    void theBomListsEveryPublishedModuleAtTheProjectsVersion() throws Exception {
        Document parent = read(REPO.resolve("pom.xml"));
        String version = child(parent.getDocumentElement(), "version").orElseThrow();
        Document bom = read(REPO.resolve("bom/pom.xml"));
        assertThat(child(bom.getDocumentElement(), "version")).contains(version);
        assertThat(child(bom.getDocumentElement(), "parent")).isEmpty();

        List<String> published = new ArrayList<>();
        for (Element module : elements(parent.getDocumentElement(), "modules", "module")) {
            Path pom = REPO.resolve(module.getTextContent().trim()).resolve("pom.xml");
            Element project = read(pom).getDocumentElement();
            Optional<String> skip = elements(project, "properties").stream()
                    .findFirst()
                    .flatMap(properties -> child(properties, "publish.skip"));
            if (skip.isPresent() && skip.get().equals("false")) {
                published.add(child(project, "artifactId").orElseThrow());
            }
        }
        assertThat(published)
                .containsExactlyInAnyOrder(
                        "utf8-sanitiser-core",
                        "utf8-sanitiser-config",
                        "utf8-sanitiser-registry",
                        "utf8-sanitiser-serdes",
                        "utf8-sanitiser-streams",
                        "utf8-sanitiser-connect");

        List<String> managed = new ArrayList<>();
        for (Element dependency :
                elements(bom.getDocumentElement(), "dependencyManagement", "dependencies", "dependency")) {
            assertThat(child(dependency, "version")).contains(version);
            managed.add(child(dependency, "artifactId").orElseThrow()
                    + child(dependency, "classifier").map(c -> ":" + c).orElse(""));
        }
        List<String> expected = new ArrayList<>(published);
        expected.add("utf8-sanitiser-connect:plugin");
        assertThat(managed).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void theExampleBuildsOnTheProjectsVersionAndKafka() throws Exception {
        Element parent = read(REPO.resolve("pom.xml")).getDocumentElement();
        Element example = read(REPO.resolve("examples/pom.xml")).getDocumentElement();
        assertThat(child(example, "parent")).isEmpty();
        assertThat(property(example, "utf8-sanitiser.version"))
                .isEqualTo(child(parent, "version").orElseThrow());
        assertThat(property(example, "kafka.version")).isEqualTo(property(parent, "kafka.version"));
        assertThat(property(example, "junit.version")).isEqualTo(property(parent, "junit.version"));
        assertThat(property(example, "assertj.version")).isEqualTo(property(parent, "assertj.version"));
    }

    private static Document read(Path pom) throws Exception {
        assertThat(pom).exists();
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        try (var in = Files.newInputStream(pom)) {
            return factory.newDocumentBuilder().parse(in);
        }
    }

    private static String property(Element project, String name) {
        Element properties = elements(project, "properties").get(0);
        return child(properties, name).orElseThrow(() -> new AssertionError("no property " + name));
    }

    /** The text of the direct child element {@code name}. */
    private static Optional<String> child(Element element, String name) {
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child && child.getTagName().equals(name)) {
                return Optional.of(child.getTextContent().trim());
            }
        }
        return Optional.empty();
    }

    /** The elements at this path of direct children. */
    private static List<Element> elements(Element from, String... path) {
        List<Element> current = List.of(from);
        for (String name : path) {
            List<Element> next = new ArrayList<>();
            for (Element element : current) {
                NodeList children = element.getChildNodes();
                for (int i = 0; i < children.getLength(); i++) {
                    if (children.item(i) instanceof Element child
                            && child.getTagName().equals(name)) {
                        next.add(child);
                    }
                }
            }
            current = next;
        }
        return current;
    }
}
