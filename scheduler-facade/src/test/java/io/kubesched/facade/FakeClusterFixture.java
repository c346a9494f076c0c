package io.kubesched.facade;

import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/** Nodes, pods, a first-fit policy and a recording listener for tests on the fake cluster. */
final class FakeClusterFixture {

  static final String SCHEDULER = "test-scheduler";
  static final String NAMESPACE = "default";

  private FakeClusterFixture() {}

  static Options fakeOptions() {
    return Options.builder()
        .fake()
        .schedulerName(SCHEDULER)
        .backoff(Duration.ofMillis(100), Duration.ofMillis(400))
        .build();
  }

  static Node node(String name, String cpu, String memory, String pods) {
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewStatus()
        .withAllocatable(
            Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity(pods)))
        .endStatus()
        .build();
  }

  static Pod pod(String name, String schedulerName, String cpu, String memory) {
    return new PodBuilder()
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
        .build();
  }

  static void create(KubernetesClient kube, Node node) {
    kube.nodes().resource(node).create();
  }

  static void create(KubernetesClient kube, Pod pod) {
    kube.pods().inNamespace(NAMESPACE).resource(pod).create();
  }

  static String nodeOf(KubernetesClient kube, String podName) {
    var pod = kube.pods().inNamespace(NAMESPACE).withName(podName).get();
    var node = pod == null || pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return node == null ? "" : node;
  }

  /** The first node, by name, with room for the pod's CPU, memory and pod slot. */
  static FinderFunc firstFit() {
    return (pod, nodes) -> {
      var reasons = new HashMap<String, List<String>>();
      for (NodeInfo node : nodes) {
        var after = node.requested().plus(pod.requests());
        var misfits = new ArrayList<String>();
        if (after.milliCpu() > node.allocatable().milliCpu()) {
          misfits.add("Insufficient cpu");
        }
        if (after.memory() > node.allocatable().memory()) {
          misfits.add("Insufficient memory");
        }
        if (after.pods() > node.allocatable().pods()) {
          misfits.add("Too many pods");
        }
        if (misfits.isEmpty()) {
          return Decision.bind(node.name());
        }
        reasons.put(node.name(), misfits);
      }
      return Decision.unschedulable(reasons);
    };
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

  /** Records every callback. */
  static final class Recorder implements SchedulingListener {
    final Map<String, List<String>> bound = new ConcurrentHashMap<>();
    final Map<String, String> unschedulable = new ConcurrentHashMap<>();
    final Map<String, Exception> failed = new ConcurrentHashMap<>();
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void bound(PodInfo pod, String nodeName) {
      bound.computeIfAbsent(pod.name(), p -> new CopyOnWriteArrayList<>()).add(nodeName);
      events.add("bound " + pod.name());
    }

    @Override
    public void unschedulable(PodInfo pod, String message) {
      unschedulable.put(pod.name(), message);
      events.add("unschedulable " + pod.name());
    }

    @Override
    public void failed(String podKey, Exception error) {
      failed.put(podKey, error);
      events.add("failed " + podKey);
    }
  }
}
