package io.kubesched.spring;

import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Nodes and pods on the fake cluster for the starter's tests, and waiting for them. (The facade's
 * FakeClusterFixture is not readable here: this module reads io.kubesched.facade as a named module.)
 */
final class FakeClusterObjects {

  private FakeClusterObjects() {}

  static void node(KubernetesClient kube, String name, String cpu, String memory) {
    kube.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus()
        .withAllocatable(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity("110")))
        .endStatus().build()).create();
  }

  /** A pod of one container asking for {@code cpu} and {@code memory}, in namespace default. */
  static PodBuilder pod(String name, String schedulerName, String cpu, String memory) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withSchedulerName(schedulerName).addNewContainer().withName("app").withImage("app:1")
        .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
        .endResources().endContainer().endSpec();
  }

  static void create(KubernetesClient kube, PodBuilder pod) {
    kube.pods().inNamespace("default").resource(pod.build()).create();
  }

  /** @return the pod's node, empty while it is unbound or absent */
  static String nodeOf(KubernetesClient kube, String pod) {
    var found = kube.pods().inNamespace("default").withName(pod).get();
    return found == null || found.getSpec().getNodeName() == null ? "" : found.getSpec().getNodeName();
  }

  static void eventually(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + timeout + " waiting until " + what);
      }
      Thread.sleep(20);
    }
  }

  static String rootMessage(Throwable t) {
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return String.valueOf(t.getMessage());
  }
}
