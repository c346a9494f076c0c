package io.kubesched.samples.josdk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.samples.josdk.BatchJobStatus.Phase;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class BatchJobReconcilerTest {

  private final Workers workers =
      WorkersTest.valid(WorkersTest.job("train", new BatchJobSpec("red", 3, "1", "1Gi", null)));

  @Test
  void a_job_is_pending_until_every_worker_is_bound_and_says_why_one_waits() {
    var status = BatchJobReconciler.statusOf(workers,
        List.of(worker(0, "node-a"), worker(1, null), waiting(2, "0/4 nodes are available: 4 Insufficient cpu.")),
        3L);
    assertEquals(new BatchJobStatus(Phase.PENDING, 1, Map.of("train-worker-0", "node-a"),
        "1 of 3 workers placed; train-worker-2: 0/4 nodes are available: 4 Insufficient cpu.", 3L), status);
  }

  @Test
  void a_job_is_placed_once_every_worker_is_bound_with_each_workers_node() {
    var status = BatchJobReconciler.statusOf(workers,
        List.of(worker(2, "node-b"), worker(0, "node-a"), worker(1, "node-a")), 1L);
    assertEquals(new BatchJobStatus(Phase.PLACED, 3,
        Map.of("train-worker-0", "node-a", "train-worker-1", "node-a", "train-worker-2", "node-b"),
        "3 of 3 workers placed on 2 nodes", 1L), status);
    assertEquals(List.of("train-worker-0", "train-worker-1", "train-worker-2"), List.copyOf(status.nodes().keySet()));
  }

  @Test
  void workers_not_created_yet_count_as_not_placed() {
    var status = BatchJobReconciler.statusOf(workers, List.of(), 1L);
    assertEquals(new BatchJobStatus(Phase.PENDING, 0, Map.of(), "0 of 3 workers placed", 1L), status);
  }

  @Test
  void the_status_patch_carries_the_name_namespace_and_status_only() {
    var job = WorkersTest.job("train", new BatchJobSpec("red", 3, "1", "1Gi", null));
    job.getMetadata().setResourceVersion("41");
    job.getMetadata().setUid("uid-1");
    var status = new BatchJobStatus(Phase.PLACED, 0, Map.of(), "", 1L);
    var patch = BatchJobReconciler.statusPatch(job, status);
    assertEquals(List.of("train", "batch"), List.of(patch.getMetadata().getName(), patch.getMetadata().getNamespace()));
    assertEquals(null, patch.getMetadata().getResourceVersion());
    assertEquals(null, patch.getSpec());
    assertEquals(status, patch.getStatus());
  }

  private static Pod worker(int index, @Nullable String node) {
    return new PodBuilder().withNewMetadata().withName("train-worker-" + index).endMetadata()
        .withNewSpec().withNodeName(node).endSpec().build();
  }

  private static Pod waiting(int index, String message) {
    return new PodBuilder(worker(index, null)).withNewStatus().addNewCondition().withType("PodScheduled")
        .withStatus("False").withReason("Unschedulable").withMessage(message).endCondition().endStatus().build();
  }
}
