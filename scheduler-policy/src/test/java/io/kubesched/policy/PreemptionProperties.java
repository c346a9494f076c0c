package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodDisruptionBudget;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreemptionPolicy;
import io.kubesched.api.Resources;
import io.kubesched.policy.PreemptionFixtures.LabelLimit;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.runtime.Filtering;
import io.kubesched.policy.framework.runtime.NodeStatuses;
import io.kubesched.policy.framework.runtime.TrackedFilters;
import io.kubesched.policy.plugins.Filters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * Preemption's laws over generated clusters of a few nodes with pods of mixed priorities, labels, start times
 * and terminating victims, PodDisruptionBudgets, a nominated pod, and a preemptor that may be nominated or may
 * never preempt; the policy's filters are NodeResourcesFit and a cluster-wide limit on pods labelled {@code
 * app=b} (a filter that follows pods on other nodes, so the victims reach it through its tracker). Both filters
 * only reject more as pods are added, as kube's reprieve assumes.
 */
class PreemptionProperties {

  private static final long UNIT = 1000;

  /**
   * A generated attempt.
   *
   * @param nodes the nodes with their pods
   * @param pdbs the budgets
   * @param nominated pods nominated to nodes, each with its node
   * @param pod the preemptor
   * @param limit how many pods labelled {@code app=b} the cluster may hold
   */
  record Scenario(List<NodeInfo> nodes, List<PodDisruptionBudget> pdbs, List<PodInfo> nominated, PodInfo pod,
      int limit) {

    ClusterSnapshot cluster() {
      return ClusterSnapshot.of(nodes).withDisruptionBudgets(pdbs).withNominations(Nominations.of(nominated));
    }

    List<Filter> filters() {
      return List.of(Filters.resourcesFit(), new LabelLimit("app", "b", limit));
    }

    Policy policy() {
      return Policy.builder().filters(filters()).preemption(PreemptionArgs.DEFAULT).seed(11).build();
    }
  }

  /** A pod as generated, before it has a name and node. */
  record PodSpec(int priority, long cpu, String app, @Nullable Instant start, boolean terminatingByPreemption) {}

  @Provide
  Arbitrary<Scenario> scenarios() {
    var terminating = Arbitraries.integers().between(0, 9).map(i -> i == 0);
    Arbitrary<PodSpec> specs = Combinators.combine(
            Arbitraries.of(-10, 0, 10, 20),
            Arbitraries.longs().between(1, 3),
            Arbitraries.of("a", "b", ""),
            Arbitraries.of(0L, 1L, 2L, 3L).injectNull(0.3),
            terminating)
        .as((priority, cpu, app, start, t) ->
            new PodSpec(priority, cpu, app, start == null ? null : Instant.ofEpochSecond(start), t));
    var nodes = Combinators.combine(Arbitraries.longs().between(3, 8), specs.list().ofMaxSize(4))
        .as(NodeSpec::new)
        .list().ofMinSize(1).ofMaxSize(5);
    var pdbs = Combinators.combine(
            Arbitraries.of("a", "b"), Arbitraries.integers().between(0, 2), Arbitraries.of(true, false))
        .as((app, allowed, disruptsFirst) -> new PdbSpec(app, allowed, disruptsFirst))
        .list().ofMaxSize(2);
    var preemptor = Combinators.combine(
            Arbitraries.of(0, 10, 20, 30),
            Arbitraries.longs().between(1, 8),
            Arbitraries.integers().between(0, 9),
            Arbitraries.integers().between(-3, 4))
        .as(PreemptorSpec::new);
    var nominated = Combinators.combine(
            Arbitraries.of(0, 10, 20, 30), Arbitraries.longs().between(1, 3), Arbitraries.integers().between(0, 4))
        .as(NominatedSpec::new)
        .list().ofMaxSize(1);
    return Combinators.combine(nodes, pdbs, preemptor, nominated, Arbitraries.integers().between(1, 6))
        .as(PreemptionProperties::scenario);
  }

  record NodeSpec(long cpu, List<PodSpec> pods) {}

  record PdbSpec(String app, int allowed, boolean disruptsFirst) {}

  /** {@code never} 0 makes the pod never preempt; {@code nominatedTo} below 0 leaves it without a nomination. */
  record PreemptorSpec(int priority, long cpu, int never, int nominatedTo) {}

  record NominatedSpec(int priority, long cpu, int node) {}

  private static Scenario scenario(
      List<NodeSpec> nodeSpecs, List<PdbSpec> pdbSpecs, PreemptorSpec p, List<NominatedSpec> nominatedSpecs,
      int limit) {
    var nodes = new ArrayList<NodeInfo>();
    for (int i = 0; i < nodeSpecs.size(); i++) {
      var name = "n" + i;
      var pods = new ArrayList<PodInfo>();
      var podSpecs = nodeSpecs.get(i).pods();
      for (int j = 0; j < podSpecs.size(); j++) {
        var spec = podSpecs.get(j);
        pods.add(PodInfo.builder("ns", name + "-p" + j)
            .nodeName(name)
            .priority(spec.priority())
            .requests(spec.cpu() * UNIT, 0)
            .labels(spec.app().isEmpty() ? Map.of() : Map.of("app", spec.app()))
            .startTime(spec.start())
            .terminating(spec.terminatingByPreemption())
            .preemptedByScheduler(spec.terminatingByPreemption())
            .build());
      }
      nodes.add(NodeInfo.builder(name)
          .allocatable(new Resources(nodeSpecs.get(i).cpu() * UNIT, 0, 0, 4, Map.of()))
          .pods(pods)
          .build());
    }
    var pdbs = new ArrayList<PodDisruptionBudget>();
    for (int i = 0; i < pdbSpecs.size(); i++) {
      var spec = pdbSpecs.get(i);
      pdbs.add(new PodDisruptionBudget(
          "ns", "pdb" + i, LabelSelector.of(Map.of("app", spec.app())), spec.allowed(),
          spec.disruptsFirst() ? Set.of("n0-p0") : Set.of()));
    }
    var nominated = new ArrayList<PodInfo>();
    for (int i = 0; i < nominatedSpecs.size(); i++) {
      var spec = nominatedSpecs.get(i);
      nominated.add(PodInfo.builder("ns", "nominated" + i)
          .priority(spec.priority())
          .requests(spec.cpu() * UNIT, 0)
          .nominatedNodeName("n" + (spec.node() % nodes.size()))
          .build());
    }
    var pod = PodInfo.builder("ns", "preemptor")
        .priority(p.priority())
        .requests(p.cpu() * UNIT, 0)
        .preemptionPolicy(p.never() == 0 ? PreemptionPolicy.NEVER : PreemptionPolicy.PREEMPT_LOWER_PRIORITY)
        .nominatedNodeName(p.nominatedTo() < 0 ? "" : "n" + (p.nominatedTo() % nodes.size()))
        .build();
    return new Scenario(nodes, pdbs, nominated, pod, limit);
  }

  /** @return whether {@code pod} fits {@code node} with {@code removed} gone, trackers told (1.15's check) */
  private static boolean fitsWithout(
      List<Filter> prepared, PodInfo pod, NodeInfo node, List<PodInfo> removed, Nominations nominations) {
    var tracked = TrackedFilters.of(prepared);
    var copy = node;
    for (var victim : removed) {
      copy = copy.withoutPod(victim.uid());
      tracked.removed(victim, copy);
    }
    return Filtering.runWithNominated(tracked.filters(), tracked::copy, pod, copy, nominations, null) == null;
  }

  private static String outcome(Decision decision) {
    if (decision instanceof Decision.Bind) {
      return "fits";
    }
    var unschedulable = (Decision.Unschedulable) decision;
    var nomination = unschedulable.nomination();
    if (nomination instanceof Nomination.To) {
      return "preemption found";
    }
    if (nomination instanceof Nomination.Clear) {
      return "preemption not found";
    }
    return unschedulable.postFilterMessage().startsWith("preemption: not eligible") ? "not eligible" : "error";
  }

  @Property
  void victims_are_of_lower_priority_make_room_and_none_of_them_could_stay(@ForAll("scenarios") Scenario s) {
    var cluster = s.cluster();
    var decision = s.policy().find(s.pod(), cluster);

    var outcome = outcome(decision);
    Statistics.label("outcome").collect(outcome);
    Statistics.label("outcome").coverage(c -> {
      c.check("preemption found").count(n -> n > 0);
      c.check("preemption not found").count(n -> n > 0);
      c.check("not eligible").count(n -> n > 0);
      c.check("error").count(n -> n == 0);
    });
    if (!(decision instanceof Decision.Unschedulable unschedulable)
        || !(unschedulable.nomination() instanceof Nomination.To to)) {
      return;
    }
    var node = cluster.node(to.nodeName()).orElseThrow();
    var prepared = PreemptionFixtures.prepare(s.filters(), s.pod(), cluster);
    var nominations = cluster.nominations();
    Statistics.label("victims").collect(to.victims().size() == 1 ? "one" : "several");
    Statistics.label("victims").coverage(c -> c.check("several").count(n -> n > 0));

    for (var victim : to.victims()) {
      assertTrue(victim.priority() < s.pod().priority(), victim.key() + " is not of lower priority");
      assertTrue(node.pods().contains(victim), victim.key() + " is not on " + node.name());
    }
    assertFalse(fitsWithout(prepared, s.pod(), node, List.of(), nominations), "the pod fit without preemption");
    assertTrue(fitsWithout(prepared, s.pod(), node, to.victims(), nominations), "the victims do not make room");
    for (var spared : to.victims()) {
      var others = to.victims().stream().filter(v -> v != spared).toList();
      assertFalse(
          fitsWithout(prepared, s.pod(), node, others, nominations),
          "the pod would fit with " + spared.key() + " spared");
    }
  }

  @Property
  void a_budget_is_violated_only_if_no_candidate_avoids_it(@ForAll("scenarios") Scenario s) {
    var cluster = s.cluster();
    var decision = s.policy().find(s.pod(), cluster);
    if (!(decision instanceof Decision.Unschedulable unschedulable)
        || !(unschedulable.nomination() instanceof Nomination.To to)) {
      return;
    }
    var prepared = PreemptionFixtures.prepare(s.filters(), s.pod(), cluster);
    // Every node the filters found unschedulable is a potential one; its victims as the dry run chooses them.
    int fewest = Integer.MAX_VALUE;
    int chosen = -1;
    for (var node : cluster.nodes()) {
      var tracked = TrackedFilters.of(prepared);
      var stop = Filtering.runWithNominated(
          tracked.filters(), tracked::copy, s.pod(), node, cluster.nominations(), null);
      if (stop == null || stop.result().code() != FilterResult.Code.UNSCHEDULABLE) {
        continue;
      }
      var outcome = Preemption.selectVictimsOnNode(
          s.pod(), node, prepared, cluster.disruptionBudgets(), cluster.nominations());
      if (outcome instanceof Preemption.NodeOutcome.Victims victims && !victims.pods().isEmpty()) {
        fewest = Math.min(fewest, victims.pdbViolations());
        if (node.name().equals(to.nodeName())) {
          assertEquals(to.victims(), victims.pods());
          chosen = victims.pdbViolations();
        }
      }
    }
    Statistics.label("violations").collect(chosen == 0 ? "none" : "some");
    Statistics.label("violations").coverage(c -> c.check("some").count(n -> n > 0));
    assertEquals(fewest, chosen);
  }

  @Property
  void without_pods_of_lower_priority_the_fast_path_says_what_the_dry_run_would(@ForAll("scenarios") Scenario s) {
    var cluster = s.cluster();
    var prepared = PreemptionFixtures.prepare(s.filters(), s.pod(), cluster);
    var byNode = new HashMap<String, FilterResult.Rejected>();
    for (var node : cluster.nodes()) {
      var tracked = TrackedFilters.of(prepared);
      var stop = Filtering.runWithNominated(
          tracked.filters(), tracked::copy, s.pod(), node, cluster.nominations(), null);
      if (stop != null) {
        byNode.put(node.name(), (FilterResult.Rejected) stop.result());
      }
    }
    var statuses = NodeStatuses.of(byNode);
    var preemption = new Preemption(PreemptionArgs.DEFAULT);
    var potential = statuses.nodesWith(FilterResult.Code.UNSCHEDULABLE, cluster.nodes());
    var noLowerPriority = potential.stream()
        .allMatch(node -> node.pods().stream().allMatch(p -> p.priority() >= s.pod().priority()));
    if (potential.isEmpty() || !noLowerPriority || !Preemption.eligibility(s.pod(), cluster, statuses).isEmpty()) {
      return;
    }
    Statistics.label("potential nodes").collect(potential.size() == 1 ? "one" : "several");
    Statistics.label("potential nodes").coverage(c -> c.check("several").count(n -> n > 0));

    var result = preemption.evaluate(s.pod(), cluster, prepared, statuses, PreemptionFixtures.offsets(0));
    var dryRun = preemption.dryRun(s.pod(), cluster, prepared, potential, 0, potential.size());

    assertTrue(dryRun.candidates().isEmpty());
    assertTrue(dryRun.errors().isEmpty());
    assertEquals(
        Preemption.PREFIX + Preemption.fitError(cluster.nodes().size(), dryRun.statuses(), 0), result.message());
    assertEquals(Nomination.CLEAR, result.nomination());
    assertNull(result.chosen());
  }
}
