package io.kubesched.samples.josdk;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.samples.josdk.placement.TeamPacking;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A {@link BatchJob}'s workers as they are to be run: its spec once checked, and the pods made from it.
 *
 * @param job the job's name, put on every worker as {@value #JOB_LABEL}
 * @param team the team, put on every worker as {@value TeamPacking#TEAM_LABEL}
 * @param count how many workers, at least 1
 * @param cpu each worker's CPU, positive
 * @param memory each worker's memory, positive
 * @param image the workers' image
 */
record Workers(String job, String team, int count, Quantity cpu, Quantity memory, String image) {

  /** The label naming a worker's job; the reconciler's pod informer selects on it. */
  static final String JOB_LABEL = "samples.kubesched.io/job";

  /** The workers' image when the spec names none: they only need to exist, placed. */
  static final String DEFAULT_IMAGE = "busybox:1.37";

  /** A label value: at most 63 characters, alphanumerics with '-', '_' or '.' inside. */
  private static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

  Workers {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(team, "team");
    Objects.requireNonNull(cpu, "cpu");
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(image, "image");
  }

  /** The outcome of {@link #check}: the workers, or what is wrong with the job. */
  sealed interface Checked {}

  /** The job can run as {@code workers}. */
  record Valid(Workers workers) implements Checked {}

  /** The job cannot run; {@code message} names each wrong field with its value. */
  record Invalid(String message) implements Checked {}

  /**
   * Checks a job's name and spec, reporting every problem at once rather than the first.
   *
   * @return the workers to run, or a message naming each wrong field and its value ({@code spec.workers must be
   *     at least 1, was 0})
   */
  static Checked check(BatchJob job) {
    var name = job.getMetadata().getName();
    var spec = job.getSpec();
    if (spec == null) {
      return new Invalid("spec is missing");
    }
    var problems = new ArrayList<String>();
    if (name == null || !LABEL_VALUE.matcher(name).matches()) {
      problems.add("metadata.name must be a label value (at most 63 characters) to label the workers with, was "
          + quoted(name));
    }
    if (spec.team() == null || !LABEL_VALUE.matcher(spec.team()).matches()) {
      problems.add("spec.team must be a label value (1 to 63 letters, digits, '-', '_' or '.', beginning and"
          + " ending with a letter or digit), was " + quoted(spec.team()));
    }
    if (spec.workers() == null || spec.workers() < 1) {
      problems.add("spec.workers must be at least 1, was "
          + (spec.workers() == null ? "missing" : spec.workers()));
    }
    var cpu = positiveQuantity("spec.cpu", spec.cpu(), problems);
    var memory = positiveQuantity("spec.memory", spec.memory(), problems);
    var image = spec.image() == null ? DEFAULT_IMAGE : spec.image();
    if (image.isBlank()) {
      problems.add("spec.image must not be blank when given");
    }
    if (!problems.isEmpty()) {
      return new Invalid(String.join("; ", problems));
    }
    return new Valid(new Workers(Objects.requireNonNull(name), Objects.requireNonNull(spec.team()),
        Objects.requireNonNull(spec.workers()), Objects.requireNonNull(cpu), Objects.requireNonNull(memory), image));
  }

  /** @return the name of worker {@code index}: {@code <job>-worker-<index>} */
  String podName(int index) {
    return job + "-worker-" + index;
  }

  /** @return the names of the workers, in index order */
  List<String> podNames() {
    var names = new ArrayList<String>(count);
    for (int i = 0; i < count; i++) {
      names.add(podName(i));
    }
    return names;
  }

  /**
   * Worker {@code index} of {@code owner}: in its namespace, owned by it (so it is deleted with it, and its
   * changes reach the reconciler), labelled with the team and the job, and placed by {@code schedulerName}.
   */
  Pod pod(BatchJob owner, int index, String schedulerName) {
    var requests = Map.of("cpu", cpu, "memory", memory);
    return new PodBuilder()
        .withMetadata(new ObjectMetaBuilder()
            .withName(podName(index))
            .withNamespace(owner.getMetadata().getNamespace())
            .withLabels(Map.of(TeamPacking.TEAM_LABEL, team, JOB_LABEL, job))
            .withOwnerReferences(new OwnerReferenceBuilder()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build())
            .build())
        .withNewSpec()
        .withSchedulerName(schedulerName)
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("worker")
        .withImage(image)
        .withNewResources()
        .withRequests(requests)
        .withLimits(requests)
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  private static @Nullable Quantity positiveQuantity(String field, @Nullable String value, List<String> problems) {
    if (value == null) {
      problems.add(field + " must be a quantity such as 500m or 1Gi, was missing");
      return null;
    }
    try {
      var quantity = new Quantity(value);
      if (quantity.getNumericalAmount().compareTo(BigDecimal.ZERO) <= 0) {
        problems.add(field + " must be positive, was " + quoted(value));
        return null;
      }
      return quantity;
    } catch (IllegalArgumentException | ArithmeticException e) {
      problems.add(field + " must be a quantity such as 500m or 1Gi, was " + quoted(value));
      return null;
    }
  }

  private static String quoted(@Nullable String value) {
    return value == null ? "missing" : '"' + value + '"';
  }
}
