package io.kubesched.binder.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonPatch;
import io.kubesched.binder.BinderFixtures;
import io.kubesched.binder.PodConditionUpdate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * The laws of {@link SchedulingReporter#statusPatch}, the one status patch that writes the {@code
 * PodScheduled} condition and the nomination: applied with a real JSON Patch implementation (the one
 * fabric8's mock server uses), it leaves the pod showing both, touches nothing else, never fails on the pod it
 * was made for, and is empty exactly when the pod shows both already.
 */
class StatusPatchProperties {

  private static final String NOW = "2026-03-04T05:06:07Z";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  @Property(tries = 500)
  void the_patch_leaves_the_pod_showing_the_condition_and_the_nomination(
      @ForAll("pods") Pod pod,
      @ForAll("wanted") PodCondition wanted,
      @ForAll("nominations") @Nullable String nomination) {
    var ops = SchedulingReporter.statusPatch(pod, wanted, NOW, nomination);
    Statistics.collect(describe(pod, wanted, nomination, ops.isEmpty()));
    Statistics.coverage(
        c -> {
          c.check("nothing to write").count(n -> n > 0);
          c.check("condition only").count(n -> n > 0);
          c.check("nomination set").count(n -> n > 0);
          c.check("nomination removed").count(n -> n > 0);
          c.check("pod without status").count(n -> n > 0);
        });

    var after = apply(pod, ops);

    var before = nominationOf(pod);
    var expected = nomination == null ? before : nomination;
    assertEquals(expected, nominationOf(after), "nomination");
    assertEquals(
        List.of(), SchedulingReporter.statusPatch(after, wanted, "2026-03-04T06:00:00Z", nomination),
        "written again");
    var condition = PodConditionUpdate.find(after.getStatus(), wanted.getType());
    assertEquals(wanted.getReason(), condition.getReason());
    assertEquals(wanted.getMessage(), condition.getMessage());
    assertEquals(others(pod), others(after), "other conditions");
    assertEquals(pod.getStatus() == null ? null : pod.getStatus().getPhase(), after.getStatus().getPhase());
    if (!ops.isEmpty()) {
      assertEquals(
          pod.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion(), "locked to it");
    }
  }

  /**
   * The ops applied to the pod by fabric8's JSON Patch. Called by reflection: its node type is Jackson 3's on
   * fabric8 8 and Jackson 2's on 7, and this test runs on both lines.
   */
  private static Pod apply(Pod pod, List<?> ops) {
    var apply = Arrays.stream(JsonPatch.class.getMethods())
        .filter(m -> m.getName().equals("apply") && m.getParameterCount() == 2)
        .findFirst().orElseThrow();
    var node = apply.getParameterTypes()[0];
    try {
      var patched = apply.invoke(null, JSON.convertValue(ops, node), JSON.convertValue(pod, node));
      return JSON.convertValue(patched, Pod.class);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("JsonPatch.apply", e);
    }
  }

  private static String nominationOf(Pod pod) {
    var status = pod.getStatus();
    return status == null || status.getNominatedNodeName() == null ? "" : status.getNominatedNodeName();
  }

  private static List<PodCondition> others(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return List.of();
    }
    return pod.getStatus().getConditions().stream().filter(c -> !"PodScheduled".equals(c.getType())).toList();
  }

  private static String describe(Pod pod, PodCondition wanted, @Nullable String nomination, boolean empty) {
    if (pod.getStatus() == null) {
      return "pod without status";
    }
    if (empty) {
      return "nothing to write";
    }
    if (nomination == null || nomination.equals(nominationOf(pod))) {
      return "condition only";
    }
    return nomination.isEmpty() ? "nomination removed" : "nomination set";
  }

  @Provide
  Arbitrary<PodCondition> wanted() {
    return Combinators.combine(
            Arbitraries.of("Unschedulable", "SchedulerError"),
            Arbitraries.of("0/1 nodes are available.", "0/2 nodes are available."))
        .as((r, m) -> new PodConditionBuilder().withType("PodScheduled").withStatus("False").withReason(r)
            .withMessage(m).build());
  }

  @Provide
  Arbitrary<@Nullable String> nominations() {
    return Arbitraries.of("", "node-1", "node-2").injectNull(0.25);
  }

  @Provide
  Arbitrary<Pod> pods() {
    var podScheduled = Combinators.combine(
            Arbitraries.of("True", "False"),
            Arbitraries.of("Unschedulable", "SchedulerError"),
            Arbitraries.of("0/1 nodes are available.", "0/2 nodes are available."))
        .as((s, r, m) -> new PodConditionBuilder().withType("PodScheduled").withStatus(s).withReason(r)
            .withMessage(m).withLastTransitionTime("2026-01-01T00:00:00Z").build());
    var other = Arbitraries.of("Custom", "Ready", "DisruptionTarget")
        .map(type -> new PodConditionBuilder().withType(type).withStatus("True")
            .withLastTransitionTime("2026-01-01T00:00:00Z").build());
    var others = other.list().ofMaxSize(2).uniqueElements(PodCondition::getType);
    Arbitrary<@Nullable PodStatus> statuses = Combinators.combine(
            others,
            podScheduled.optional(0.6),
            Arbitraries.integers().between(0, 2),
            Arbitraries.of("", "node-1", "node-2").injectNull(0.3))
        .as((list, ps, at, nominated) -> {
          var conditions = new ArrayList<>(list);
          ps.ifPresent(c -> conditions.add(Math.min(at, conditions.size()), c));
          var status = new PodStatus();
          status.setPhase("Pending");
          status.setConditions(conditions);
          status.setNominatedNodeName(nominated);
          return status;
        })
        .injectNull(0.1);
    return statuses.map(
        status -> new PodBuilder(BinderFixtures.pod()).withStatus(status).build());
  }
}
