package io.kubesched.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The check that the class path holds the fabric8 line this build was made for, and its message. */
class Fabric8LineTest {

  @Test
  void this_builds_class_path_passes_and_the_version_built_for_was_filtered_in() {
    assertTrue(Fabric8Line.builtFor().startsWith("8."), Fabric8Line.builtFor());
    var found = Fabric8Line.found(Fabric8Line.class.getClassLoader());
    assertEquals(Fabric8Line.MODULES.size(), found.size(), found.toString());
    Fabric8Line.require(); // no exception
  }

  /**
   * kubernetes-client 7.5.2 (a real jar, copied by the build) beside this build's kubernetes-client-api 8: the
   * class path a java-operator-sdk 5 BOM imported before this library's gave, which died at the first request
   * with a NoSuchMethodError.
   */
  @Test
  void a_fabric8_7_client_beside_the_8_api_is_named_with_what_to_import() throws Exception {
    var api = Path.of(io.fabric8.kubernetes.client.KubernetesClient.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI());
    Path seven;
    try (Stream<Path> jars = Files.list(Path.of("target/mixed-classpath"))) {
      seven = jars.filter(p -> p.getFileName().toString().startsWith("kubernetes-client-7.")).findFirst().orElseThrow();
    }
    try (var mixed = new URLClassLoader(new URL[] {seven.toUri().toURL(), api.toUri().toURL()}, null)) {
      var found = Fabric8Line.found(mixed);
      assertEquals(Map.of("kubernetes-client", "7.5.2", "kubernetes-client-api", Fabric8Line.builtFor()), found);
      var message = Fabric8Line.problem(Fabric8Line.builtFor(), found, false).orElseThrow();
      assertTrue(message.contains("io.fabric8:kubernetes-client 7.5.2"), message);
      assertTrue(message.contains("io.fabric8:kubernetes-client-api " + Fabric8Line.builtFor()), message);
      assertTrue(message.contains("must all be of one version"), message);
      assertTrue(message.contains("no Jackson 3"), message);
      assertTrue(message.contains("Import io.fabric8:kubernetes-client-bom:" + Fabric8Line.builtFor()), message);
    }
  }

  @Test
  void one_version_of_the_line_built_for_with_its_jackson_is_fine_and_anything_else_is_not() {
    var line = Map.of("kubernetes-client", "8.0.0", "kubernetes-client-api", "8.0.0");
    assertEquals(Optional.empty(), Fabric8Line.problem("8.0.0", line, true));
    assertEquals(Optional.empty(), Fabric8Line.problem("8.0.0", Map.of(), true), "nothing found: nothing to say");
    assertTrue(Fabric8Line.problem("8.0.0", line, false).orElseThrow().contains("no Jackson 3"));
    var seven = Fabric8Line.problem("8.0.0", Map.of("kubernetes-client", "7.4.0", "kubernetes-client-api", "7.4.0"), true)
        .orElseThrow();
    assertTrue(seven.contains("the 8.x line") && seven.contains("7.4.0"), seven);
    assertTrue(Fabric8Line.problem("8.0.0", Map.of("kubernetes-client", "8.0.1", "kubernetes-client-api", "8.0.0"), true)
        .orElseThrow().contains("must all be of one version"));
  }
}
