package io.kubesched.e2e;

import io.kubesched.testcluster.TestCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a {@link TestCluster}: one for the whole run, started at first use with kube-controller-manager's
 * PersistentVolume and disruption controllers running ({@link TestCluster.Builder#controllerManager()}) and the
 * README's RBAC applied for the scheduler's service account, and stopped when the run ends (JUnit closes it as
 * an {@link AutoCloseable} value of the root store). If the cluster cannot be built or started, the tests fail
 * with the script's output: the end-to-end run never skips.
 */
final class RealClusterExtension implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(RealClusterExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(TestCluster.class, key -> start(), TestCluster.class);
  }

  /** @return the reactor's root, where {@code test-cluster/cluster.sh} is */
  static Path projectDir() {
    // The failsafe configuration sets it to the reactor's root; ".." is that root seen from this module.
    return Path.of(System.getProperty("kubesched.projectDir", ".."));
  }

  private static TestCluster start() {
    var projectDir = projectDir();
    try {
      var cluster = TestCluster.builder(projectDir).controllerManager().start();
      try {
        applyReadmeRbac(cluster, projectDir);
      } catch (IOException | RuntimeException e) {
        cluster.close();
        throw e;
      }
      return cluster;
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the test cluster: " + e.getMessage(), e);
    }
  }

  /** Applies the RBAC manifest the README documents, as written there. */
  private static void applyReadmeRbac(TestCluster cluster, Path projectDir) throws IOException {
    var readme = Files.readString(projectDir.resolve("README.md"));
    var section = readme.indexOf("## RBAC");
    var start = readme.indexOf("```yaml\n", section);
    if (section < 0 || start < 0) {
      throw new IllegalStateException("README.md has no yaml block under '## RBAC'");
    }
    start += "```yaml\n".length();
    var yaml = readme.substring(start, readme.indexOf("```", start));
    cluster.admin().load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).create();
  }
}
