package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PreemptionModelTest {

  private static final PodInfo P1 = PodInfo.builder("ns", "p1").uid("u1").priority(10).build();
  private static final PodInfo P2 = PodInfo.builder("ns", "p2").uid("u2").priority(20).build();

  @Test
  void pods_are_listed_per_node_in_the_order_they_were_nominated() {
    var nominations = Nominations.NONE.with(P2, "n1").with(P1, "n1");

    assertEquals(List.of(P2, P1), nominations.on("n1"));
    assertEquals(List.of(), nominations.on("n2"));
    assertEquals("n1", nominations.nodeOf("u1"));
    assertEquals(2, nominations.size());
  }

  @Test
  void nominating_again_moves_the_pod_and_keeps_one_entry() {
    var moved = Nominations.NONE.with(P1, "n1").with(P1.toBuilder().priority(11).build(), "n2");

    assertEquals(List.of(), moved.on("n1"));
    assertEquals(11, moved.on("n2").get(0).priority(), "the newer version of the pod is kept");
    assertEquals(1, moved.size());
  }

  @Test
  void an_empty_node_or_without_removes_the_nomination() {
    var one = Nominations.NONE.with(P1, "n1");

    assertTrue(one.with(P1, "").isEmpty());
    assertTrue(one.without("u1").isEmpty());
    assertEquals("", one.without("u1").nodeOf("u1"));
    assertSame(one, one.without("unknown"), "nothing to remove: the same instance");
    assertEquals(Nominations.NONE, one.without("u1"));
  }

  @Test
  void of_takes_the_pods_that_carry_a_nominated_node() {
    var nominated = P1.toBuilder().nominatedNodeName("n3").build();

    var nominations = Nominations.of(List.of(nominated, P2));

    assertEquals(List.of(nominated), nominations.on("n3"));
    assertEquals(1, nominations.size());
  }

  @Test
  void the_post_filter_message_follows_the_filters_message() {
    var decision = Decision.unschedulable(Map.of("n1", List.of("Insufficient cpu")))
        .withPostFilter(
            "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
            Nomination.CLEAR);

    assertEquals(
        "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption "
            + "victims found for incoming pod.",
        decision.message(1));
    assertEquals(Decision.Unschedulable.NO_NODES, decision.message(0), "no node: no preemption either");
    var preFilter = Decision.unschedulable(Map.of("n1", List.of("x")), "claim missing")
        .withPostFilter("preemption: ...", Nomination.KEEP);
    assertEquals("0/1 nodes are available: claim missing. preemption: ...", preFilter.message(1));
  }

  @Test
  void the_factories_clear_the_nomination_and_mark_no_node_unresolvable() {
    var decision = Decision.unschedulable(Map.of("n1", List.of("x")));

    assertEquals(Nomination.CLEAR, decision.nomination());
    assertEquals(Set.of(), decision.unresolvableNodes());
    assertEquals(Set.of("n1"), decision.withUnresolvableNodes(Set.of("n1")).unresolvableNodes());
  }

  @Test
  void a_nomination_to_a_node_needs_a_name_and_a_victim() {
    assertThrows(IllegalArgumentException.class, () -> new Nomination.To("n1", List.of()));
    assertThrows(IllegalArgumentException.class, () -> new Nomination.To(" ", List.of(P1)));
  }

  @Test
  void a_budget_protects_labelled_pods_of_its_namespace_that_its_non_empty_selector_matches() {
    var web = PodInfo.builder("shop", "w").labels(Map.of("app", "web")).build();
    var budget = new PodDisruptionBudget("shop", "b", LabelSelector.of(Map.of("app", "web")), 0, Set.of());

    assertTrue(budget.protects(web));
    assertEquals(false, budget.protects(web.toBuilder().labels(Map.of()).build()));
    assertEquals(false, new PodDisruptionBudget("other", "b", budget.selector(), 0, Set.of()).protects(web));
    assertEquals(false, new PodDisruptionBudget("shop", "b", null, 0, Set.of()).protects(web));
    assertEquals(false, new PodDisruptionBudget("shop", "b", LabelSelector.of(Map.of()), 0, Set.of()).protects(web));
  }

  @Test
  void a_pod_is_terminating_by_preemption_only_while_deleted_and_marked() {
    var pod = PodInfo.builder("ns", "p").build();

    assertEquals(false, pod.terminatingByPreemption());
    assertEquals(false, pod.toBuilder().terminating(true).build().terminatingByPreemption());
    assertEquals(false, pod.toBuilder().preemptedByScheduler(true).build().terminatingByPreemption());
    assertTrue(pod.toBuilder().terminating(true).preemptedByScheduler(true).build().terminatingByPreemption());
  }
}
