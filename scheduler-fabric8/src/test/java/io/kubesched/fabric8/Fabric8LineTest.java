package io.kubesched.fabric8;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The check that the class path holds the fabric8 line this build was made for, and its message. Runs on both
 * lines: the build copies a {@code kubernetes-client} jar of the other line into {@code target/mixed-classpath}.
 */
class Fabric8LineTest {

  private static String line() {
    var builtFor = Fabric8Line.builtFor();
    return builtFor.substring(0, builtFor.indexOf('.'));
  }

  @Test
  void this_builds_class_path_passes_and_the_version_built_for_was_filtered_in() {
    var found = Fabric8Line.found(Fabric8Line.class.getClassLoader());
    assertEquals(Fabric8Line.MODULES.size(), found.size(), found.toString());
    assertTrue(found.values().stream().allMatch(Fabric8Line.builtFor()::equals), "all at the version built for: " + found);
    assertEquals(Fabric8Compat.get().builtFor(), Fabric8Line.builtFor());
    assertTrue(Fabric8Line.present(Fabric8Compat.get().jacksonMapperClass(), getClass().getClassLoader()));
    Fabric8Line.require(); // no exception
  }

  /**
   * A kubernetes-client of the other line (a real jar, copied by the build) beside this build's
   * kubernetes-client-api: on line 8, kubernetes-client 7.5.2 beside -api 8 is the class path a
   * java-operator-sdk 5 BOM imported before this library's gave, which died at the first request with a
   * NoSuchMethodError.
   */
  @Test
  void a_client_of_the_other_line_beside_this_lines_api_is_named_with_what_to_import() throws Exception {
    var api = Path.of(io.fabric8.kubernetes.client.KubernetesClient.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI());
    // The build copies it there (maven-dependency-plugin, execution mixed-classpath) and says where and which.
    var otherVersion = System.getProperty("kubesched.mixedClientVersion");
    var other = Path.of(System.getProperty("kubesched.mixedClasspath"), "kubernetes-client-" + otherVersion + ".jar");
    assertTrue(Files.isRegularFile(other), other + " was not copied by the build");
    var name = other.getFileName().toString();
    assertFalse(otherVersion.startsWith(line() + "."), "the copied jar is of the other line: " + name);
    try (var mixed = new URLClassLoader(new URL[] {other.toUri().toURL(), api.toUri().toURL()}, null)) {
      var found = Fabric8Line.found(mixed);
      assertEquals(Map.of("kubernetes-client", otherVersion, "kubernetes-client-api", Fabric8Line.builtFor()), found);
      var jackson = Fabric8Line.present(Fabric8Compat.get().jacksonMapperClass(), mixed);
      var message = Fabric8Line.problem(Fabric8Line.builtFor(), found, jackson).orElseThrow();
      assertTrue(message.contains("io.fabric8:kubernetes-client " + otherVersion), message);
      assertTrue(message.contains("io.fabric8:kubernetes-client-api " + Fabric8Line.builtFor()), message);
      assertTrue(message.contains("must all be of one version"), message);
      assertTrue(message.contains("and no Jackson " + (line().equals("8") ? "3" : "2")), message);
      assertTrue(message.contains("Import io.fabric8:kubernetes-client-bom:" + Fabric8Line.builtFor()), message);
      assertTrue(message.contains("kubesched-bom-fabric8-7 for fabric8 7"), message);
    }
  }

  @Test
  void one_version_of_the_line_built_for_with_its_jackson_is_fine_and_anything_else_is_not() {
    var line = Map.of("kubernetes-client", "8.0.0", "kubernetes-client-api", "8.0.0");
    assertEquals(Optional.empty(), Fabric8Line.problem("8.0.0", line, true));
    assertEquals(Optional.empty(), Fabric8Line.problem("8.0.0", Map.of(), true), "nothing found: nothing to say");
    assertTrue(Fabric8Line.problem("8.0.0", line, false).orElseThrow().contains("and no Jackson 3"));
    var seven = Fabric8Line.problem("8.0.0", Map.of("kubernetes-client", "7.4.0", "kubernetes-client-api", "7.4.0"), true)
        .orElseThrow();
    assertTrue(seven.contains("the 8.x line") && seven.contains("7.4.0"), seven);
    assertTrue(Fabric8Line.problem("8.0.0", Map.of("kubernetes-client", "8.0.1", "kubernetes-client-api", "8.0.0"), true)
        .orElseThrow().contains("must all be of one version"));
  }

  @Test
  void on_the_7_line_7_4_and_newer_are_fine_and_an_older_one_is_not() {
    var newer = Map.of("kubernetes-client", "7.9.0", "kubernetes-client-api", "7.9.0");
    assertEquals(Optional.empty(), Fabric8Line.problem("7.5.2", newer, true));
    assertEquals(Optional.empty(), Fabric8Line.problem("7.5.2", Map.of("kubernetes-client", "7.4.0"), true), "7.4 runs");
    var older = Fabric8Line.problem("7.5.2", Map.of("kubernetes-client", "7.3.1", "kubernetes-client-api", "7.3.1"), true)
        .orElseThrow();
    assertTrue(older.contains("the 7.x line, 7.4 or newer, Jackson 2") && older.contains("7.3.1"), older);
    assertTrue(Fabric8Line.problem("7.5.2", newer, false).orElseThrow().contains("and no Jackson 2"));
  }
}
