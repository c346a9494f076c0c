package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.binder.BindOutcome;
import io.kubesched.informer.cycle.PodGroupLookup;
import io.kubesched.informer.report.GroupReportPort;
import io.kubesched.policy.GroupExplanation;
import io.kubesched.policy.Policy;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.Scorers;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link Explainer} on the loop's parts without an API server: a pod explained as the next attempt would see it,
 * a pod group member with its group (or why not), and nothing in the queue or the cache moved by explaining.
 */
class ExplainerTest {

  private static final String NAME = "my-scheduler";

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Map<PodGroupRef, PodGroup> groups = new ConcurrentHashMap<>();
  private boolean honoured = true;
  private final PodGroupLookup lookup = GroupFixtures.lookup(groups, () -> honoured);
  private final Policy policy = Policy.builder().filter(Filters.resourcesFit()).scorer(Scorers.leastAllocated(), 1).seed(7).build();
  private final LoopParts parts =
      FakeLoop.of(
              TestSettings.forFakeCluster(NAME), policy, clock::get, (pod, node) -> new BindOutcome.Bound(node, false))
          .groups(lookup, GroupReportPort.NONE)
          .create();
  private final Explainer explainer =
      new Explainer(
          parts.profiles(), parts.queue(), parts.cache(),
          (nodes, nominations) -> ClusterSnapshot.of(nodes).withNominations(nominations),
          parts.handlers()::pendingPod, lookup);

  ExplainerTest() {
    parts.handlers().nodes().onAdd(SchedulingLoopPartsTest.node("n1"));
    parts.handlers().nodes().onAdd(SchedulingLoopPartsTest.node("n2"));
  }

  private static PodGroupRef ref(String group) {
    return new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "default", group);
  }

  private static Pod member(String name, String group) {
    return new PodBuilder(SchedulingLoopPartsTest.pod(name))
        .editMetadata().addToLabels(SchedulingConstants.POD_GROUP_LABEL, group).endMetadata()
        .build();
  }

  private void add(Pod... pods) {
    for (var pod : pods) {
      parts.handlers().pods().onAdd(pod);
    }
  }

  private LoopExplanation explain(Pod pod) {
    var explained = explainer.explain(pod);
    assertNotNull(explained, pod.getMetadata().getName() + " is one of ours");
    return explained;
  }

  @Test
  void a_pending_pod_is_explained_alone_and_explaining_takes_or_assumes_nothing() {
    var pod = SchedulingLoopPartsTest.pod("p");
    add(pod);
    var depths = parts.queue().depths();

    var explained = explain(pod);

    assertEquals("default/p", explained.key());
    assertEquals(NAME, explained.profile());
    assertNotNull(explained.pod());
    assertInstanceOf(Decision.Bind.class, explained.pod().decision());
    assertEquals(2, explained.pod().nodes().size());
    assertEquals(depths, parts.queue().depths(), "nothing taken");
    assertTrue(parts.cache().nodes().stream().allMatch(n -> n.pods().isEmpty()), "nothing assumed");
  }

  @Test
  void a_pod_the_last_attempt_assumed_is_said_to_be_being_bound_and_a_pod_of_another_scheduler_is_none_of_ours()
      throws Exception {
    var pod = SchedulingLoopPartsTest.pod("p");
    add(pod);
    parts.scheduling().scheduleOne(parts.queue().poll()); // bound through the fake port; the watch has not shown it

    var explained = explain(pod);

    assertTrue(explained.unexplained().startsWith("it is being bound to node n"), explained.unexplained());
    var foreign = new PodBuilder(SchedulingLoopPartsTest.pod("f")).editSpec().withSchedulerName("other").endSpec().build();
    add(foreign);
    assertNull(explainer.explain(foreign));
  }

  @Test
  void a_member_is_explained_with_its_group_in_the_order_the_group_cycle_tries_them() {
    groups.put(ref("g"), PodGroup.of(ref("g"), 2));
    var c = member("c", "g");
    add(c, member("a", "g"), member("b", "g"));
    var depths = parts.queue().depths();

    var explained = explain(c);

    GroupExplanation group = explained.group();
    assertNotNull(group, explained.unexplained());
    assertTrue(group.isPlaced(), group.toTable());
    assertEquals(List.of("a", "b", "c"), group.members().stream().map(m -> m.pod().name()).toList());
    assertEquals(depths, parts.queue().depths(), "no member taken");
    assertTrue(parts.cache().nodes().stream().allMatch(n -> n.pods().isEmpty()), "nothing assumed");
  }

  @Test
  void a_group_unknown_or_short_of_members_says_what_it_waits_for_and_an_unhonoured_source_explains_alone() {
    var a = member("a", "g");
    add(a);

    assertEquals(
        "its pod group default/g is not known yet: its members wait until it is created", explain(a).unexplained());

    groups.put(ref("g"), PodGroup.of(ref("g"), 3));
    add(member("b", "g"));
    assertEquals(
        "its pod group default/g has 2 of its minimum of 3 members (0 placed); it waits for the others",
        explain(a).unexplained());

    honoured = false;
    assertNotNull(explain(a).pod(), "scheduled on its own, as the cycle would");
  }

  @Test
  void a_gated_pod_is_explained_with_a_note_of_its_gates() {
    var gated = new PodBuilder(SchedulingLoopPartsTest.pod("g"))
        .editSpec().addNewSchedulingGate("example.com/quota").endSpec().build();
    add(gated);

    var explained = explain(gated);

    assertNotNull(explained.pod());
    assertEquals(
        List.of("scheduling gates [example.com/quota] hold it: it is not tried until the last is removed"),
        explained.notes());
    assertEquals(List.of("example.com/quota"), explained.pod().pod().schedulingGates());
  }
}
