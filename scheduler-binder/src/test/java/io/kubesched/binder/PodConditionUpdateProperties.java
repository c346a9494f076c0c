package io.kubesched.binder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The laws of {@link PodConditionUpdate}, over statuses drawn from small alphabets (so the pod often shows
 * exactly the wanted condition, and often differs in one field only).
 */
class PodConditionUpdateProperties {

  private static final String NOW = "2026-03-04T05:06:07Z";
  private static final String LATER = "2026-03-04T06:00:00Z";

  @Property(tries = 500)
  void once_written_the_same_condition_is_never_written_again(
      @ForAll("statuses") PodStatus status, @ForAll("wanted") PodCondition wanted) {
    var update = PodConditionUpdate.of(status, wanted, NOW);
    Statistics.collect(describe(status, wanted, update.isPresent()));
    Statistics.coverage(
        c -> {
          c.check("added").count(n -> n > 0);
          c.check("status changed").count(n -> n > 0);
          c.check("same status, text changed").count(n -> n > 0);
          c.check("shown already").count(n -> n > 0);
        });

    var after = update.map(u -> apply(status, u)).orElse(status);
    assertEquals(
        List.of(), PodConditionUpdate.of(after, wanted, LATER).stream().toList(), "written again");
  }

  @Property(tries = 500)
  void the_transition_time_moves_exactly_when_the_status_does(
      @ForAll("statuses") PodStatus status, @ForAll("wanted") PodCondition wanted) {
    var old = PodConditionUpdate.find(status, wanted.getType());
    PodConditionUpdate.of(status, wanted, NOW)
        .ifPresent(
            u -> {
              boolean moved = old == null || !old.getStatus().equals(wanted.getStatus());
              assertEquals(moved ? NOW : old.getLastTransitionTime(), u.condition().getLastTransitionTime());
            });
  }

  @Property(tries = 500)
  void other_conditions_are_never_touched_and_none_is_duplicated(
      @ForAll("statuses") PodStatus status, @ForAll("wanted") PodCondition wanted) {
    PodConditionUpdate.of(status, wanted, NOW)
        .ifPresent(
            u -> {
              var after = apply(status, u).getConditions();
              var others = status.getConditions().stream()
                  .filter(c -> !c.getType().equals(wanted.getType())).toList();
              assertEquals(others, after.stream().filter(c -> !c.getType().equals(wanted.getType())).toList());
              assertEquals(1, after.stream().filter(c -> c.getType().equals(wanted.getType())).count());
              assertTrue(after.contains(u.condition()));
            });
  }

  /** The pod's status after the write: the condition replaced at its index, or appended. */
  private static PodStatus apply(PodStatus status, PodConditionUpdate update) {
    var conditions = new ArrayList<>(status.getConditions());
    if (update.added()) {
      conditions.add(update.condition());
    } else {
      conditions.set(update.index(), update.condition());
    }
    return new PodStatusBuilder(status).withConditions(conditions).build();
  }

  private static String describe(PodStatus status, PodCondition wanted, boolean written) {
    var old = PodConditionUpdate.find(status, wanted.getType());
    if (old == null) {
      return "added";
    }
    if (!written) {
      return "shown already";
    }
    return Objects.equals(old.getStatus(), wanted.getStatus()) ? "same status, text changed" : "status changed";
  }

  @Provide
  Arbitrary<PodCondition> wanted() {
    return Combinators.combine(
            Arbitraries.of("True", "False"),
            Arbitraries.of("Unschedulable", "SchedulerError"),
            Arbitraries.of("0/1 nodes are available.", "0/2 nodes are available."))
        .as((s, r, m) -> new PodConditionBuilder().withType("PodScheduled").withStatus(s).withReason(r)
            .withMessage(m).build());
  }

  @Provide
  Arbitrary<PodStatus> statuses() {
    var podScheduled = Combinators.combine(
            Arbitraries.of("True", "False"),
            Arbitraries.of("Unschedulable", "SchedulerError"),
            Arbitraries.of("0/1 nodes are available.", "0/2 nodes are available."),
            Arbitraries.of("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"),
            Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Arbitraries.just((String) null)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just("2026-01-01T00:00:00Z"))))
        .as((s, r, m, t, p) -> new PodConditionBuilder().withType("PodScheduled").withStatus(s).withReason(r)
            .withMessage(m).withLastTransitionTime(t).withLastProbeTime(p).build());
    var other = Arbitraries.of("Custom", "Ready", "DisruptionTarget")
        .map(type -> new PodConditionBuilder().withType(type).withStatus("True")
            .withLastTransitionTime("2026-01-01T00:00:00Z").build());
    var others = other.list().ofMaxSize(3).uniqueElements(PodCondition::getType);
    return Combinators.combine(others, podScheduled.optional(0.75), Arbitraries.integers().between(0, 3))
        .as((list, ps, at) -> {
          var conditions = new ArrayList<>(list);
          ps.ifPresent(c -> conditions.add(Math.min(at, conditions.size()), c));
          return new PodStatusBuilder().withConditions(conditions).build();
        });
  }
}
