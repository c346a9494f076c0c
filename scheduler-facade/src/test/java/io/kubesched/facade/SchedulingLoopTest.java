package io.kubesched.facade;

import static io.kubesched.facade.FakeClusterFixture.NAMESPACE;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.firstFit;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.nodeOf;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.SchedulerMetrics.Result;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The loop's features seen from the facade, on the fake cluster: profiles, metrics, shutdown, leadership. */
class SchedulingLoopTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  /** The last fitting node by name: the opposite of firstFit, to tell the profiles apart. */
  private static FinderFunc lastFit() {
    var first = firstFit();
    return (pod, nodes) -> {
      var reversed = nodes.stream().sorted(Comparator.comparing(NodeInfo::name).reversed()).toList();
      return first.find(pod, reversed);
    };
  }

  @Test
  void one_controller_serves_several_scheduler_names_each_with_its_own_policy() {
    try (var client = Client.create(FakeClusterFixture.fakeOptions())) {
      var kube = client.kubernetesClient();
      create(kube, node("node-a", "4", "8Gi", "110"));
      create(kube, node("node-z", "4", "8Gi", "110"));
      var recorder = new FakeClusterFixture.Recorder();
      try (var controller =
          client.newPodController(Map.of("packer", firstFit(), "spreader", lastFit()), recorder)) {
        controller.start();
        create(kube, pod("packed", "packer", "100m", "64Mi"));
        create(kube, pod("spread", "spreader", "100m", "64Mi"));
        create(kube, pod("theirs", "someone-else", "100m", "64Mi"));
        eventually(WAIT, "both profiles' pods are bound", () -> recorder.bound.size() == 2);

        assertEquals("node-a", nodeOf(kube, "packed"));
        assertEquals("node-z", nodeOf(kube, "spread"));
        assertEquals("", nodeOf(kube, "theirs"));
      }
    }
  }

  @Test
  void the_metrics_count_attempts_by_result_and_the_pending_pods_per_queue() {
    var metrics = new RecordingMetrics();
    var options =
        Options.builder()
            .fake()
            .schedulerName(FakeClusterFixture.SCHEDULER)
            .backoff(Duration.ofMillis(100), Duration.ofMillis(400))
            .metrics(metrics)
            .build();
    try (var client = Client.create(options)) {
      var kube = client.kubernetesClient();
      create(kube, node("node-0", "1", "8Gi", "110"));
      var recorder = new FakeClusterFixture.Recorder();
      try (var controller = client.newPodController(firstFit(), recorder)) {
        controller.start();
        create(kube, pod("fits", FakeClusterFixture.SCHEDULER, "500m", "64Mi"));
        create(kube, pod("too-big", FakeClusterFixture.SCHEDULER, "2", "64Mi"));
        eventually(WAIT, "one bound, one unschedulable", () -> recorder.bound.size() == 1
            && !recorder.unschedulable.isEmpty());
        eventually(WAIT, "the attempts are counted", () -> metrics.attempts(Result.SCHEDULED) == 1
            && metrics.attempts(Result.UNSCHEDULABLE) >= 1);
        eventually(WAIT, "the unschedulable pod waits in its queue", 
            () -> metrics.pending().unschedulable() == 1);
      }
    }
  }

  @Test
  void closing_waits_for_bindings_in_flight_and_leaves_no_thread_behind() {
    var before = kubeschedThreads();
    try (var client = Client.create(FakeClusterFixture.fakeOptions())) {
      var kube = client.kubernetesClient();
      create(kube, node("node-0", "8", "8Gi", "110"));
      var recorder = new FakeClusterFixture.Recorder();
      var controller = client.newPodController(firstFit(), recorder);
      controller.start();
      for (int i = 0; i < 30; i++) {
        create(kube, pod("pod-" + i, FakeClusterFixture.SCHEDULER, "100m", "64Mi"));
      }
      eventually(WAIT, "some pods are bound", () -> !recorder.bound.isEmpty());
      assertFalse(kubeschedThreads().isEmpty(), "the controller runs threads of its own");

      controller.close();

      // Every binding the controller started has ended: each bound pod is on its node in the cluster.
      for (var name : recorder.bound.keySet()) {
        assertFalse(nodeOf(kube, NAMESPACE, name).isEmpty(), name + " was reported bound but is not");
      }
      var left = new java.util.HashSet<>(kubeschedThreads());
      left.removeAll(before);
      assertEquals(Set.of(), left, "threads left behind");
    }
  }

  @Test
  void a_policy_shares_its_node_loop_out_to_the_controllers_own_threads_which_end_with_it() {
    assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "one processor: the loop works alone");
    var before = kubeschedThreads();
    var granted = new AtomicInteger();
    var helperThreads = ConcurrentHashMap.<String>newKeySet();
    var first = firstFit();
    FinderFunc sharing =
        new FinderFunc() {
          @Override
          public io.kubesched.api.Decision find(io.kubesched.api.PodInfo pod, java.util.List<NodeInfo> nodes) {
            return first.find(pod, nodes);
          }

          @Override
          public FinderFunc withParallelism(int parallelism, Executor executor) {
            granted.set(parallelism);
            return (pod, nodes) -> {
              var done = new CountDownLatch(1);
              executor.execute(
                  () -> {
                    helperThreads.add(Thread.currentThread().getName());
                    done.countDown();
                  });
              try {
                done.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return first.find(pod, nodes);
            };
          }
        };
    var options =
        Options.builder()
            .fake()
            .schedulerName(FakeClusterFixture.SCHEDULER)
            .parallelism(2)
            .build();
    try (var client = Client.create(options)) {
      var kube = client.kubernetesClient();
      create(kube, node("node-0", "4", "8Gi", "110"));
      var recorder = new FakeClusterFixture.Recorder();
      var controller = client.newPodController(sharing, recorder);
      controller.start();
      create(kube, pod("shared", FakeClusterFixture.SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "the pod is bound", () -> recorder.bound.size() == 1);

      assertEquals(2, granted.get(), "the finder is asked for the parallelism set");
      assertEquals(Set.of("kubesched-filter-" + FakeClusterFixture.SCHEDULER + "-1"), helperThreads);
      controller.close();
      // A pool's awaitTermination returns once its tasks are done; its threads may take a moment more to end.
      eventually(WAIT, "the controller's threads end", () -> {
        var left = new java.util.HashSet<>(kubeschedThreads());
        left.removeAll(before);
        return left.isEmpty();
      });
    }
  }

  @Test
  void without_leader_election_a_running_controller_leads() {
    try (var client = Client.create(FakeClusterFixture.fakeOptions())) {
      var controller = client.newPodController(firstFit());
      assertFalse(controller.isLeader());
      controller.start();
      assertTrue(controller.isLeader());
      controller.close();
      assertFalse(controller.isLeader());
    }
  }

  @Test
  void a_pod_that_fits_nowhere_is_placed_as_soon_as_a_node_that_fits_appears() {
    var options =
        Options.builder()
            .fake()
            .schedulerName(FakeClusterFixture.SCHEDULER)
            .backoff(Duration.ofMillis(100), Duration.ofMillis(200))
            .build();
    try (var client = Client.create(options)) {
      var kube = client.kubernetesClient();
      create(kube, node("small", "1", "8Gi", "110"));
      var recorder = new FakeClusterFixture.Recorder();
      try (var controller = client.newPodController(firstFit(), recorder)) {
        controller.start();
        create(kube, pod("big", FakeClusterFixture.SCHEDULER, "2", "64Mi"));
        eventually(WAIT, "the pod is unschedulable", () -> !recorder.unschedulable.isEmpty());
        sleepQuietly(Duration.ofMillis(500)); // its backoff (at most 200 ms) is over: it waits for an event
        long attempts = attemptsOf(recorder, "big");
        sleepQuietly(Duration.ofMillis(800));
        assertEquals(attempts, attemptsOf(recorder, "big"), "retried on a timer, not on an event");

        create(kube, node("large", "4", "8Gi", "110"));

        eventually(WAIT, "the pod is bound to the new node", () -> "large".equals(nodeOf(kube, "big")));
      }
    }
  }

  private static void sleepQuietly(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Set<String> kubeschedThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.startsWith("kubesched-"))
        .collect(Collectors.toSet());
  }

  private static long attemptsOf(FakeClusterFixture.Recorder recorder, String pod) {
    return recorder.events.stream().filter(event -> event.equals("unschedulable " + pod)).count();
  }
}
