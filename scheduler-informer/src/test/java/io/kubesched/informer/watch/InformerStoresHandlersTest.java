package io.kubesched.informer.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingListener;
import io.kubesched.engine.ClusterEventMoves;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import io.kubesched.informer.cycle.Reporting;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A bound pod's status updates as the pod informer delivers them (the new object full, the old one in the
 * store's kept form) reach the scheduler cache wherever they change what preemption reads of a victim: its
 * start time, its {@code DisruptionTarget} mark and its deletion.
 */
class InformerStoresHandlersTest {

  private static final String OURS = "my-scheduler";

  private final SchedulingQueue queue =
      new SchedulingQueue(Ticker.SYSTEM, Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMinutes(5));
  private final SchedulerCache cache = new SchedulerCache(Ticker.SYSTEM, Duration.ofMinutes(5));
  private final EventHandlers handlers =
      new EventHandlers(
          Set.of(OURS),
          queue,
          cache,
          new StorageCache(),
          new ClusterEventMoves(queue),
          new Reporting(Map.of(), Runnable::run, SchedulingListener.NONE));

  private static Pod running(String name) {
    return new PodBuilder()
        .withNewMetadata().withNamespace("default").withName(name).withUid("uid-" + name).withResourceVersion("1")
        .endMetadata()
        .withNewSpec().withSchedulerName(OURS).withNodeName("n1").withPriority(10)
        .addNewContainer().withName("c").withImage("i").endContainer().endSpec()
        .withNewStatus().withPhase("Pending").endStatus()
        .build();
  }

  /** {@code oldPod} updated to {@code newPod}, as fabric8 calls the handler: the old one from the store. */
  private void update(Pod oldPod, Pod newPod) {
    handlers.pods().onUpdate(InformerStoresTest.stored(oldPod), newPod);
  }

  private PodInfo cached(String name) {
    var node = cache.nodes().node("n1");
    return node.pods().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void a_victim_s_start_time_mark_and_deletion_reach_the_cache() {
    cache.putNode(NodeInfo.builder("n1").allocatable(4000, 1L << 32, 110).build());
    var created = running("web");
    handlers.pods().onAdd(created);
    assertNull(cached("web").startTime());

    var started =
        new PodBuilder(created)
            .editMetadata().withResourceVersion("2").endMetadata()
            .editStatus().withPhase("Running").withStartTime("2026-03-02T09:14:31Z").endStatus()
            .build();
    update(created, started);
    assertEquals(Instant.parse("2026-03-02T09:14:31Z"), cached("web").startTime());

    var marked =
        new PodBuilder(started)
            .editMetadata().withResourceVersion("3").endMetadata()
            .editStatus()
            .addNewCondition().withType("DisruptionTarget").withStatus("True").withReason("PreemptionByScheduler")
            .endCondition()
            .endStatus()
            .build();
    update(started, marked);
    assertTrue(cached("web").preemptedByScheduler());
    assertFalse(cached("web").terminatingByPreemption());

    var deleting =
        new PodBuilder(marked)
            .editMetadata().withResourceVersion("4").withDeletionTimestamp("2026-03-02T10:00:30Z").endMetadata()
            .build();
    update(marked, deleting);
    assertTrue(cached("web").terminatingByPreemption(), "a victim being deleted still holds its room");
    assertEquals(1, cache.podCount());
  }

  /**
   * A node update as the node informer delivers it (the old node in the store's kept form) moves a pod only
   * NodeResourcesFit turned away when its allocatable changes, not when its labels do (issue 46's flood).
   */
  @Test
  void a_node_s_new_labels_leave_a_pod_waiting_for_cpu_and_more_allocatable_moves_it() {
    var node = new io.fabric8.kubernetes.api.model.NodeBuilder()
        .withNewMetadata().withName("n1").withResourceVersion("1").addToLabels("kubernetes.io/os", "linux")
        .endMetadata()
        .withNewStatus().addToAllocatable("cpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
        .addToAllocatable("memory", new io.fabric8.kubernetes.api.model.Quantity("8Gi"))
        .addToAllocatable("pods", new io.fabric8.kubernetes.api.model.Quantity("110")).endStatus()
        .build();
    handlers.nodes().onAdd(node);
    var waiting = new io.kubesched.engine.QueuedPod("uid-big", "default", "big", 0, OURS);
    queue.add(waiting);
    assertEquals("big", queue.poll().name());
    queue.requeueUnschedulable(waiting, queue.schedulingCycle(),
        io.kubesched.engine.QueueingHint.ANY_CHANGE.withRetriedOn(io.kubesched.api.ClusterChange.of(
            io.kubesched.api.ClusterChange.NODE_ADDED, io.kubesched.api.ClusterChange.NODE_ALLOCATABLE,
            io.kubesched.api.ClusterChange.ASSIGNED_POD_DELETED),
            // as NodeResourcesFit's hint for a pod asking for 1200m: the node before and after, as the cache has it
            update -> update instanceof io.kubesched.api.ClusterUpdate.NodeUpdated updated
                && updated.after().allocatable().milliCpu() >= 1200
                && updated.after().allocatable().milliCpu() > updated.before().allocatable().milliCpu()));

    var relabelled = new io.fabric8.kubernetes.api.model.NodeBuilder(node)
        .editMetadata().withResourceVersion("2").addToLabels("example.com/patched", "p0").endMetadata().build();
    handlers.nodes().onUpdate(InformerStoresTest.stored(node), relabelled);
    assertEquals(1, queue.depths().unschedulable(), "a label patch leaves it waiting");

    var little = new io.fabric8.kubernetes.api.model.NodeBuilder(relabelled)
        .editMetadata().withResourceVersion("3").endMetadata()
        .editStatus().addToAllocatable("cpu", new io.fabric8.kubernetes.api.model.Quantity("1100m")).endStatus()
        .build();
    handlers.nodes().onUpdate(InformerStoresTest.stored(relabelled), little);
    assertEquals(1, queue.depths().unschedulable(), "more allocatable, still too little: the hint says no");

    var bigger = new io.fabric8.kubernetes.api.model.NodeBuilder(little)
        .editMetadata().withResourceVersion("4").endMetadata()
        .editStatus().addToAllocatable("cpu", new io.fabric8.kubernetes.api.model.Quantity("1500m")).endStatus()
        .build();
    handlers.nodes().onUpdate(InformerStoresTest.stored(little), bigger);
    assertEquals(0, queue.depths().unschedulable(), "more allocatable moves it");
  }
}
