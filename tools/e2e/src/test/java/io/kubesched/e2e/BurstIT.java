package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static io.kubesched.facade.FakeClusterFixture.recordNodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingListener;
import io.kubesched.facade.Client;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A burst of pods at once, as a deployment scaled up or a batch job starting creates them. */
class BurstIT extends RealClusterTest {

  private static final int NODES = 50;
  private static final int PODS = 2000;
  private static final int CREATORS = 4;
  private static final String CPU = "100m";
  private static final String MEMORY = "64Mi";

  /** What the scheduler counts on a node, and what the API server says is there. */
  private record Load(long milliCpu, long memory, long pods) {}

  @Test
  void two_thousand_pods_created_at_once_are_each_bound_once_evenly_and_the_cache_agrees_with_the_api()
      throws Exception {
    for (int i = 0; i < NODES; i++) {
      create(admin, node(nodeName(i), "8", "32Gi", "110"));
    }
    var lastBind = new AtomicLong();
    var timing =
        new SchedulingListener() {
          @Override
          public void bound(PodInfo pod, String nodeName) {
            lastBind.accumulateAndGet(System.nanoTime(), Math::max);
            recorder.bound(pod, nodeName);
          }

          @Override
          public void unschedulable(PodInfo pod, String message) {
            recorder.unschedulable(pod, message);
          }

          @Override
          public void failed(String podKey, Exception error) {
            recorder.failed(podKey, error);
          }
        };
    var nodesSeen = new ConcurrentHashMap<String, Set<String>>();
    // The write limit is raised so that this measures the loop and the API server, not the limiter: with
    // the default 50/s shared by bindings and Scheduled events, 2 000 pods take at least 80 s.
    var options = schedulerOptions().rateLimit(5000, 5000).build();
    long firstCreate;
    long created;
    ExecutorService creators = Executors.newFixedThreadPool(CREATORS);
    try (var scheduler = Client.create(options);
        var watch = admin.pods().inNamespace(namespace).watch(recordNodes(nodesSeen));
        var controller = scheduler.newPodController(Policies.leastCpuRequested(), timing)) {
      controller.start();
      firstCreate = System.nanoTime();
      var futures = new ArrayList<Future<?>>();
      for (int t = 0; t < CREATORS; t++) {
        int first = t;
        futures.add(
            creators.submit(
                () -> {
                  for (int i = first; i < PODS; i += CREATORS) {
                    create(admin, pod(namespace, podName(i), SCHEDULER, CPU, MEMORY));
                  }
                }));
      }
      for (var future : futures) {
        future.get();
      }
      created = System.nanoTime();
      eventually(WAIT, "all " + PODS + " pods are bound", () -> recorder.bound.size() == PODS);
      eventually(WAIT, "the watch shows all " + PODS + " bound", () -> nodesSeen.size() == PODS);
      eventually(
          WAIT,
          "the scheduler's view matches the API server's",
          () -> cacheLoad(controller.nodes()).equals(apiLoad()));
      assertEquals(apiLoad(), cacheLoad(controller.nodes()));
    } finally {
      creators.shutdownNow();
    }

    for (int i = 0; i < PODS; i++) {
      var pod = podName(i);
      assertEquals(1, recorder.bound.get(pod).size(), pod + " was reported bound more than once");
      assertEquals(1, nodesSeen.get(pod).size(), pod + " was seen on two nodes: " + nodesSeen.get(pod));
    }
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
    assertTrue(recorder.unschedulable.isEmpty(), "unschedulable: " + recorder.unschedulable);
    // Least-requested over equal pods keeps the nodes within one pod of each other only if every decision
    // counted every earlier one, bound or still being bound.
    var perNode = new TreeMap<String, Long>();
    apiLoad().forEach((node, load) -> perNode.put(node, load.pods()));
    var even = new TreeMap<String, Long>();
    for (int i = 0; i < NODES; i++) {
      even.put(nodeName(i), (long) PODS / NODES);
    }
    assertEquals(even, perNode);

    double createSeconds = (created - firstCreate) / 1e9;
    double bindSeconds = (lastBind.get() - firstCreate) / 1e9;
    System.err.printf(
        "BurstIT: %d pods created in %.1f s (%.0f/s); the last bound %.1f s after the first create (%.0f pods/s),"
            + " %.1f s after the last%n",
        PODS,
        createSeconds,
        PODS / createSeconds,
        bindSeconds,
        PODS / bindSeconds,
        (lastBind.get() - created) / 1e9);
  }

  /** The load of each node as the API server has it: the sum of the requests of the pods bound to it. */
  private Map<String, Load> apiLoad() {
    var pods = admin.pods().inNamespace(namespace).list().getItems();
    var load = new TreeMap<String, Load>();
    for (int i = 0; i < NODES; i++) {
      load.put(nodeName(i), new Load(0, 0, 0));
    }
    var bound = pods.stream()
        .filter(p -> p.getSpec().getNodeName() != null)
        .collect(Collectors.groupingBy(p -> p.getSpec().getNodeName()));
    bound.forEach((node, onIt) -> load.put(node, sum(onIt)));
    return load;
  }

  private static Load sum(List<Pod> pods) {
    long milliCpu = 0;
    long memory = 0;
    for (var pod : pods) {
      for (var container : pod.getSpec().getContainers()) {
        var requests = container.getResources().getRequests();
        milliCpu += requests.get("cpu").getNumericalAmount().movePointRight(3).longValueExact();
        memory += requests.get("memory").getNumericalAmount().longValueExact();
      }
    }
    return new Load(milliCpu, memory, pods.size());
  }

  private static Map<String, Load> cacheLoad(List<NodeInfo> snapshot) {
    var load = new TreeMap<String, Load>();
    for (var node : snapshot) {
      var requested = node.requested();
      load.put(node.name(), new Load(requested.milliCpu(), requested.memory(), requested.pods()));
    }
    return load;
  }

  private static String nodeName(int i) {
    return String.format("node-%02d", i);
  }

  private static String podName(int i) {
    return String.format("pod-%04d", i);
  }
}
