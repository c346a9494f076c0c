package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.binder.BindOutcome;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.report.GroupReportPort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * The loop's pod group cycle over random clusters, groups, arrival orders, late members and bind failures:
 * no group ever ends partly placed unless one of its bindings failed for good (and then only with members
 * bound, never with an assumption left behind), no node takes more pods than it holds, and the same input
 * gives the same placement.
 */
class GroupLoopProperties {

  private static final String NAME = "my-scheduler";
  private static final int SLOTS = 2;

  /** One member or single pod, in arrival order. */
  record Arrival(String name, @Nullable String group, boolean late) {}

  /** A scenario: nodes, the groups' minimums, the arrivals, and the pods whose bindings always fail. */
  record Scenario(int nodes, Map<String, Integer> minimums, List<Arrival> arrivals, Set<String> failing) {}

  @Provide
  Arbitrary<Scenario> scenarios() {
    var groups =
        Combinators.combine(Arbitraries.integers().between(1, 5), Arbitraries.integers().between(0, 4))
            .as((size, minLess) -> new int[] {size, Math.max(1, size - minLess)})
            .list().ofMinSize(1).ofMaxSize(4);
    return Combinators.combine(
            Arbitraries.integers().between(1, 4),
            groups,
            Arbitraries.integers().between(0, 3),
            Arbitraries.randoms(),
            Arbitraries.integers().between(0, 9))
        .as((nodes, sizes, singles, random, failureDice) -> {
          var minimums = new TreeMap<String, Integer>();
          var arrivals = new ArrayList<Arrival>();
          for (int g = 0; g < sizes.size(); g++) {
            var group = "g" + g;
            minimums.put(group, sizes.get(g)[1]);
            for (int m = 0; m < sizes.get(g)[0]; m++) {
              arrivals.add(new Arrival(group + "-m" + m, group, random.nextInt(6) == 0));
            }
          }
          for (int s = 0; s < singles; s++) {
            arrivals.add(new Arrival("single-" + s, null, false));
          }
          java.util.Collections.shuffle(arrivals, random);
          var failing = failureDice < 2 && !arrivals.isEmpty()
              ? Set.of(arrivals.get(random.nextInt(arrivals.size())).name())
              : Set.<String>of();
          return new Scenario(nodes, minimums, arrivals, failing);
        });
  }

  @Property(tries = 300)
  void no_group_ends_partly_placed_and_no_node_is_overfilled(@ForAll("scenarios") Scenario scenario)
      throws Exception {
    var placed = run(scenario);

    var byGroup = new HashMap<String, Integer>();
    placed.keySet().forEach(pod -> {
      var group = groupOf(scenario, pod);
      if (group != null) {
        byGroup.merge(group, 1, Integer::sum);
      }
    });
    boolean someGroupPlaced = false;
    boolean someGroupNot = false;
    for (var entry : scenario.minimums().entrySet()) {
      int count = byGroup.getOrDefault(entry.getKey(), 0);
      boolean failed = scenario.failing().stream().anyMatch(p -> entry.getKey().equals(groupOf(scenario, p)));
      if (!failed) {
        assertTrue(count == 0 || count >= entry.getValue(),
            "group " + entry.getKey() + " partly placed: " + count + " of minimum " + entry.getValue() + " in "
                + placed);
      }
      someGroupPlaced |= count > 0;
      someGroupNot |= count == 0;
    }
    var perNode = new HashMap<String, Integer>();
    placed.values().forEach(node -> perNode.merge(node, 1, Integer::sum));
    perNode.forEach((node, count) -> assertTrue(count <= SLOTS, node + " holds " + count));
    scenario.failing().forEach(pod -> assertTrue(!placed.containsKey(pod), pod + " never binds"));

    Statistics.label("groups").collect(
        someGroupPlaced && someGroupNot ? "some placed, some not" : someGroupPlaced ? "all placed" : "none placed");
    Statistics.label("bind failure").collect(!scenario.failing().isEmpty());
    Statistics.label("late members").collect(scenario.arrivals().stream().anyMatch(Arrival::late));
    Statistics.label("groups").coverage(c -> {
      c.check("some placed, some not").count(n -> n > 10);
      c.check("none placed").count(n -> n > 3);
    });
    Statistics.label("bind failure").coverage(c -> c.check(true).count(n -> n > 10));
  }

  @Property(tries = 100)
  void the_same_scenario_gives_the_same_placement(@ForAll("scenarios") Scenario scenario) throws Exception {
    assertEquals(run(scenario), run(scenario));
  }

  private static @Nullable String groupOf(Scenario scenario, String pod) {
    return scenario.arrivals().stream().filter(a -> a.name().equals(pod)).findFirst().map(Arrival::group)
        .orElse(null);
  }

  /**
   * Runs the scenario: the first arrivals, every cycle until none is ready; then the late ones; then, after
   * every backoff has passed, once more.
   *
   * @return where each pod placed (assumed or bound) ends, by pod name
   */
  private static Map<String, String> run(Scenario scenario) throws InterruptedException {
    var clock = new AtomicLong(1_000_000_000L);
    var groups = new HashMap<PodGroupRef, PodGroup>();
    scenario.minimums().forEach((name, min) -> groups.put(ref(name), PodGroup.of(ref(name), min)));
    var finder = GroupFixtures.slots(SLOTS, () -> {});
    var lookup = GroupFixtures.lookup(groups, () -> true);
    BindPort bindPort =
        (pod, node) -> scenario.failing().contains(pod.getMetadata().getName())
            ? new BindOutcome.Failed("injected failure")
            : new BindOutcome.Bound(node, false);
    var parts =
        FakeLoop.of(TestSettings.forFakeCluster(NAME), finder, clock::get, bindPort)
            .groups(lookup, GroupReportPort.NONE)
            .create();
    for (int i = 1; i <= scenario.nodes(); i++) {
      parts.handlers().nodes().onAdd(SchedulingLoopPartsTest.node("n" + i));
    }
    for (var arrival : scenario.arrivals()) {
      if (!arrival.late()) {
        parts.handlers().pods().onAdd(pod(arrival));
      }
    }
    scheduleAll(parts);
    for (var arrival : scenario.arrivals()) {
      if (arrival.late()) {
        parts.handlers().pods().onAdd(pod(arrival));
      }
    }
    scheduleAll(parts);
    clock.addAndGet(Duration.ofMinutes(1).toNanos());
    parts.queue().flush();
    scheduleAll(parts);
    var placed = new TreeMap<String, String>();
    parts.cache().nodes().forEach(node -> node.pods().forEach(p -> placed.put(p.name(), node.name())));
    return placed;
  }

  private static void scheduleAll(LoopParts parts) throws InterruptedException {
    for (var item = parts.queue().poll(); item != null; item = parts.queue().poll()) {
      parts.scheduling().scheduleOne(item);
    }
  }

  private static PodGroupRef ref(String group) {
    return new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "default", group);
  }

  private static Pod pod(Arrival arrival) {
    var pod = SchedulingLoopPartsTest.pod(arrival.name());
    return arrival.group() == null
        ? pod
        : new PodBuilder(pod)
            .editMetadata().addToLabels(SchedulingConstants.POD_GROUP_LABEL, arrival.group()).endMetadata()
            .build();
  }
}
