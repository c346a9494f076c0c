package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Nodes, pods and configurations for the server's tests on the fake cluster. (The facade's test fixture cannot
 * be used here: its package is the facade module's own, which this named module reads from the module path.)
 */
final class ServerFixtures {

  static final String NAMESPACE = "default";

  private ServerFixtures() {}

  /** @return serving options that serve no endpoint ({@code securePort} 0), for tests that read the server directly */
  static ServingOptions notServed() {
    return new ServingOptions(
        0,
        java.net.InetAddress.getLoopbackAddress(),
        java.util.Optional.empty(),
        java.util.Optional.empty(),
        java.util.Optional.empty(),
        java.util.Optional.empty(),
        ServingOptions.DEFAULT_ALWAYS_ALLOW_PATHS);
  }

  /** @return a KubeSchedulerConfiguration read from {@code body} (everything after apiVersion and kind) */
  static SchedulerConfiguration config(String body) {
    return SchedulerConfiguration.parse(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" + body, "test.yaml");
  }

  static void createNode(KubernetesClient kube, String name, String cpu, String memory) {
    var allocatable = Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity("110"));
    kube.nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .withAllocatable(allocatable)
                .withCapacity(allocatable)
                .endStatus()
                .build())
        .create();
  }

  static void createPod(KubernetesClient kube, String name, String schedulerName, String cpu, String memory) {
    kube.pods()
        .inNamespace(NAMESPACE)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .endMetadata()
                .withNewSpec()
                .withSchedulerName(schedulerName)
                .addNewContainer()
                .withName("app")
                .withImage("app:1")
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
                .endResources()
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  /** @return the node the pod is bound to; empty if unbound or gone */
  static String nodeOf(KubernetesClient kube, String podName) {
    var pod = kube.pods().inNamespace(NAMESPACE).withName(podName).get();
    var node = pod == null || pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return node == null ? "" : node;
  }

  /** Polls {@code condition} every 20 ms until it holds, failing with {@code what} after {@code timeout}. */
  static void eventually(Duration timeout, String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + timeout + " waiting until " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting until " + what);
      }
    }
  }
}
