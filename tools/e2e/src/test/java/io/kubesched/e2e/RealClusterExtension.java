package io.kubesched.e2e;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.testcluster.TestCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a {@link TestCluster}: one for the whole run, started at first use with kube-controller-manager's
 * PersistentVolume and disruption controllers running ({@link TestCluster.Builder#controllerManager()}), the
 * RBAC of docs/operations.md applied for the scheduler's service account and the coscheduling PodGroup CRD this project ships
 * ({@value #POD_GROUP_CRD}) established, and stopped when the run ends (JUnit closes it as an {@link
 * AutoCloseable} value of the root store). The Workload API's PodGroups ({@code scheduling.k8s.io/v1beta1}) need
 * no setup: {@code tools/test-cluster/cluster.sh} serves them by default. If the cluster cannot be built or started, the tests fail
 * with the script's output: the end-to-end run never skips.
 */
final class RealClusterExtension implements ParameterResolver {

  /** The coscheduling PodGroup CRD, relative to the reactor's root. */
  static final String POD_GROUP_CRD = "crds/scheduling.x-k8s.io_podgroups.yaml";

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

  /** @return the reactor's root, where {@code tools/test-cluster/cluster.sh} is */
  static Path projectDir() {
    // The failsafe configuration sets it to the reactor's root; "../.." is that root seen from this module.
    return Path.of(System.getProperty("kubesched.projectDir", "../.."));
  }

  private static TestCluster start() {
    var projectDir = projectDir();
    try {
      var cluster = TestCluster.builder(projectDir).controllerManager().start();
      try {
        cluster.applyDocumentedRbac();
        applyPodGroupCrd(cluster, projectDir);
      } catch (IOException | RuntimeException e) {
        cluster.close();
        throw e;
      }
      return cluster;
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the test cluster: " + e.getMessage(), e);
    }
  }

  /**
   * Creates the coscheduling PodGroup CRD and returns once the API server serves it ({@code Established}), so
   * that a test can create PodGroups at once and a scheduler started then discovers the API.
   */
  private static void applyPodGroupCrd(TestCluster cluster, Path projectDir) throws IOException {
    applyCrd(cluster.admin(), projectDir.resolve(POD_GROUP_CRD));
  }

  /**
   * Creates or updates (server-side apply: the cluster is shared by the whole run) the CRD in {@code file} and
   * returns once the API server serves it ({@code Established}).
   */
  static void applyCrd(KubernetesClient admin, Path file) throws IOException {
    var crds = admin.apiextensions().v1().customResourceDefinitions();
    CustomResourceDefinition crd;
    try (var yaml = Files.newInputStream(file)) {
      crd = crds.load(yaml).item();
    }
    crds.resource(crd).serverSideApply();
    crds.withName(crd.getMetadata().getName()).waitUntilCondition(
        c -> c != null && c.getStatus() != null && c.getStatus().getConditions() != null
            && c.getStatus().getConditions().stream()
                .anyMatch(k -> "Established".equals(k.getType()) && "True".equals(k.getStatus())),
        60, TimeUnit.SECONDS);
  }
}
