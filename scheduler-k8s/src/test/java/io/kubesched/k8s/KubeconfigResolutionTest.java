package io.kubesched.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link KubeConnections#resolveKubeconfig}: which kubeconfig file is used. Pure: no client is built. */
class KubeconfigResolutionTest {

  private static final Map<String, String> NO_ENV = Map.of();

  @TempDir Path dir;
  private Path home;

  @BeforeEach
  void createHome() throws IOException {
    home = Files.createDirectory(dir.resolve("home"));
  }

  @Test
  @DisplayName("an explicit path wins over KUBECONFIG and the home directory")
  void explicitPathWins() throws IOException {
    var explicit = file("explicit.yaml");
    var fromEnv = file("env.yaml");
    homeConfig();

    var chosen = KubeConnections.resolveKubeconfig(explicit, kubeconfig(fromEnv.toString()), home);

    assertEquals(explicit, chosen);
  }

  @Test
  @DisplayName("a missing explicit path is refused, naming it, even when KUBECONFIG and home have files")
  void missingExplicitPathIsRefused() throws IOException {
    var missing = dir.resolve("nowhere.yaml");
    var fromEnv = file("env.yaml");
    homeConfig();

    var e =
        assertThrows(
            ConfigurationException.class,
            () -> KubeConnections.resolveKubeconfig(missing, kubeconfig(fromEnv.toString()), home));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }

  @Test
  @DisplayName("an explicit path naming a directory is refused, naming it")
  void explicitDirectoryIsRefused() {
    var e =
        assertThrows(
            ConfigurationException.class, () -> KubeConnections.resolveKubeconfig(dir, NO_ENV, home));
    assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
  }

  @Test
  @DisplayName("KUBECONFIG wins over the home directory")
  void kubeconfigVariableWinsOverHome() throws IOException {
    var fromEnv = file("env.yaml");
    homeConfig();

    assertEquals(fromEnv, KubeConnections.resolveKubeconfig(null, kubeconfig(fromEnv.toString()), home));
  }

  @Test
  @DisplayName("of several KUBECONFIG entries, the first existing file is used")
  void firstExistingEntryIsUsed() throws IOException {
    var second = file("second.yaml");
    var third = file("third.yaml");
    var value =
        String.join(
            File.pathSeparator,
            dir.resolve("first-missing.yaml").toString(),
            second.toString(),
            third.toString());

    assertEquals(second, KubeConnections.resolveKubeconfig(null, kubeconfig(value), home));
  }

  @Test
  @DisplayName("empty KUBECONFIG entries and directories are skipped")
  void emptyEntriesAndDirectoriesAreSkipped() throws IOException {
    var config = file("config.yaml");
    var value = String.join(File.pathSeparator, "", dir.toString(), " ", config.toString());

    assertEquals(config, KubeConnections.resolveKubeconfig(null, kubeconfig(value), home));
  }

  @Test
  @DisplayName("KUBECONFIG naming only missing files is refused, naming its value; home is not tried")
  void kubeconfigOfMissingFilesIsRefused() throws IOException {
    homeConfig();
    var value =
        String.join(File.pathSeparator, dir.resolve("a.yaml").toString(), dir.resolve("b.yaml").toString());

    var e =
        assertThrows(
            ConfigurationException.class,
            () -> KubeConnections.resolveKubeconfig(null, kubeconfig(value), home));
    assertTrue(e.getMessage().contains("KUBECONFIG"), e.getMessage());
    assertTrue(e.getMessage().contains(value), e.getMessage());
  }

  @Test
  @DisplayName("without KUBECONFIG, home/.kube/config is used")
  void homeConfigIsTheDefault() throws IOException {
    var config = homeConfig();

    assertEquals(config, KubeConnections.resolveKubeconfig(null, NO_ENV, home));
  }

  @Test
  @DisplayName("a blank KUBECONFIG counts as unset")
  void blankKubeconfigIsUnset() throws IOException {
    var config = homeConfig();

    assertEquals(config, KubeConnections.resolveKubeconfig(null, kubeconfig("  "), home));
  }

  @Test
  @DisplayName("without KUBECONFIG and without home/.kube/config, the default path is named in the error")
  void missingHomeConfigIsRefused() {
    var e =
        assertThrows(
            ConfigurationException.class, () -> KubeConnections.resolveKubeconfig(null, NO_ENV, home));
    assertTrue(
        e.getMessage().contains(home.resolve(".kube").resolve("config").toString()), e.getMessage());
  }

  private Path file(String name) throws IOException {
    return Files.writeString(dir.resolve(name), "apiVersion: v1\nkind: Config\n");
  }

  private Path homeConfig() throws IOException {
    var kube = Files.createDirectories(home.resolve(".kube"));
    return Files.writeString(kube.resolve("config"), "apiVersion: v1\nkind: Config\n");
  }

  private static Map<String, String> kubeconfig(String value) {
    return Map.of("KUBECONFIG", value);
  }
}
