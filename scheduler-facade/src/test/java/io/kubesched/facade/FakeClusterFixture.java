package io.kubesched.facade;

import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * Nodes, pods, a first-fit policy and a recording listener for tests on a cluster, fake or real. Shared
 * with the end-to-end tests through this module's test jar.
 */
public final class FakeClusterFixture {

  public static final String SCHEDULER = "test-scheduler";
  public static final String NAMESPACE = "default";

  private FakeClusterFixture() {}

  public static Options fakeOptions() {
    return Options.builder()
        .fake()
        .schedulerName(SCHEDULER)
        .backoff(Duration.ofMillis(100), Duration.ofMillis(400))
        .build();
  }

  public static Node node(String name, String cpu, String memory, String pods) {
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

  public static Pod pod(String name, String schedulerName, String cpu, String memory) {
    return pod(NAMESPACE, name, schedulerName, cpu, memory);
  }

  public static Pod pod(String namespace, String name, String schedulerName, String cpu, String memory) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
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

  public static void create(KubernetesClient kube, Node node) {
    kube.nodes().resource(node).create();
  }

  public static void create(KubernetesClient kube, Pod pod) {
    kube.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
  }

  public static String nodeOf(KubernetesClient kube, String podName) {
    return nodeOf(kube, NAMESPACE, podName);
  }

  /** @return the node the pod is bound to; empty if unbound or gone */
  public static String nodeOf(KubernetesClient kube, String namespace, String podName) {
    var pod = kube.pods().inNamespace(namespace).withName(podName).get();
    var node = pod == null || pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return node == null ? "" : node;
  }

  /** The first node, by name, not cordoned and with room for the pod's CPU, memory and pod slot. */
  public static FinderFunc firstFit() {
    return (pod, nodes) -> {
      var reasons = new HashMap<String, List<String>>();
      for (NodeInfo node : nodes) {
        if (node.unschedulable()) {
          reasons.put(node.name(), List.of("node(s) were unschedulable"));
          continue;
        }
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
  public static void eventually(Duration timeout, String what, BooleanSupplier condition) {
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

  /** A watcher that records, per pod name, every node the pod was seen bound to. */
  public static Watcher<Pod> recordNodes(Map<String, Set<String>> nodesSeen) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        var node = pod.getSpec().getNodeName();
        if (node != null && !node.isEmpty()) {
          nodesSeen.computeIfAbsent(pod.getMetadata().getName(), p -> ConcurrentHashMap.newKeySet()).add(node);
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }

  /** Records every callback: pods by name, failures by {@code namespace/name}. */
  public static final class Recorder implements SchedulingListener {
    public final Map<String, List<String>> bound = new ConcurrentHashMap<>();
    public final Map<String, String> unschedulable = new ConcurrentHashMap<>();
    public final Map<String, Exception> failed = new ConcurrentHashMap<>();
    public final List<String> events = new CopyOnWriteArrayList<>();

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
