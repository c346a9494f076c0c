package io.kubesched.samples.josdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.samples.josdk.placement.TeamPacking;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class WorkersTest {

  @Test
  void a_valid_spec_gives_its_workers_with_the_default_image() {
    var workers = valid(job("train", new BatchJobSpec("red", 3, "500m", "1Gi", null)));
    assertEquals(new Workers("train", "red", 3, new Quantity("500m"), new Quantity("1Gi"), Workers.DEFAULT_IMAGE),
        workers);
    assertEquals(List.of("train-worker-0", "train-worker-1", "train-worker-2"), workers.podNames());
  }

  @Test
  void workers_below_one_are_refused_naming_the_field_and_value() {
    assertEquals("spec.workers must be at least 1, was 0",
        invalid(job("train", new BatchJobSpec("red", 0, "1", "1Gi", null))));
    assertEquals("spec.workers must be at least 1, was -2",
        invalid(job("train", new BatchJobSpec("red", -2, "1", "1Gi", null))));
    assertEquals("spec.workers must be at least 1, was missing",
        invalid(job("train", new BatchJobSpec("red", null, "1", "1Gi", null))));
  }

  @Test
  void every_problem_is_reported_at_once() {
    var message = invalid(job("train", new BatchJobSpec("Red Team", 2, "lots", "0", " ")));
    assertEquals(List.of(
        "spec.team must be a label value (1 to 63 letters, digits, '-', '_' or '.', beginning and ending with a"
            + " letter or digit), was \"Red Team\"",
        "spec.cpu must be a quantity such as 500m or 1Gi, was \"lots\"",
        "spec.memory must be positive, was \"0\"",
        "spec.image must not be blank when given"), List.of(message.split("; ")));
  }

  @Test
  void a_missing_spec_or_a_name_too_long_for_a_label_is_refused() {
    assertEquals("spec is missing", invalid(job("train", null)));
    var name = "j".repeat(64);
    assertTrue(invalid(job(name, new BatchJobSpec("red", 1, "1", "1Gi", null)))
        .startsWith("metadata.name must be a label value (at most 63 characters)"));
  }

  @Test
  void a_worker_is_owned_by_its_job_labelled_and_placed_by_the_sample_scheduler() {
    var job = job("train", new BatchJobSpec("red", 2, "500m", "1Gi", "trainer:1"));
    job.getMetadata().setUid("uid-1");
    var pod = valid(job).pod(job, 1, BatchOperator.SCHEDULER_NAME);
    assertEquals("train-worker-1", pod.getMetadata().getName());
    assertEquals("batch", pod.getMetadata().getNamespace());
    assertEquals(Map.of(TeamPacking.TEAM_LABEL, "red", Workers.JOB_LABEL, "train"), pod.getMetadata().getLabels());
    var owner = pod.getMetadata().getOwnerReferences().get(0);
    assertEquals(List.of("samples.kubesched.io/v1", "BatchJob", "train", "uid-1", true),
        List.of(owner.getApiVersion(), owner.getKind(), owner.getName(), owner.getUid(), owner.getController()));
    assertEquals("batch-scheduler", pod.getSpec().getSchedulerName());
    var container = pod.getSpec().getContainers().get(0);
    assertEquals("trainer:1", container.getImage());
    assertEquals(Map.of("cpu", new Quantity("500m"), "memory", new Quantity("1Gi")),
        container.getResources().getRequests());
    assertEquals(container.getResources().getRequests(), container.getResources().getLimits());
  }

  static BatchJob job(String name, @Nullable BatchJobSpec spec) {
    var job = new BatchJob();
    job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("batch").withGeneration(1L).build());
    job.setSpec(spec);
    return job;
  }

  static Workers valid(BatchJob job) {
    return assertInstanceOf(Workers.Valid.class, Workers.check(job)).workers();
  }

  private static String invalid(BatchJob job) {
    return assertInstanceOf(Workers.Invalid.class, Workers.check(job)).message();
  }
}
