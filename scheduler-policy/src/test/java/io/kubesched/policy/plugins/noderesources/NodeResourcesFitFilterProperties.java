package io.kubesched.policy.plugins.noderesources;

import static io.kubesched.policy.plugins.FilterFixtures.node;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.Reason.InsufficientResource;
import io.kubesched.policy.plugins.FilterFixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class NodeResourcesFitFilterProperties {

  private final NodeResourcesFitFilter filter = new NodeResourcesFitFilter();

  @Property
  @Label("the reasons are the resources whose total after placing the pod would exceed the node's allocatable")
  void reasonsAreTheOverflowingResources(@ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node) {
    var after = node.requested().plus(pod.requests());
    var expected = new ArrayList<String>();
    if (node.pods().size() + 1 > node.allocatable().pods()) {
      expected.add("pods");
    }
    var requested = pod.requests();
    boolean requestsSomething =
        requested.milliCpu() + requested.memory() + requested.ephemeralStorage() > 0
            || !requested.extended().isEmpty();
    if (requestsSomething) {
      overflows(expected, "cpu", requested.milliCpu(), after.milliCpu(), node.allocatable().milliCpu());
      overflows(expected, "memory", requested.memory(), after.memory(), node.allocatable().memory());
      overflows(
          expected,
          "ephemeral-storage",
          requested.ephemeralStorage(),
          after.ephemeralStorage(),
          node.allocatable().ephemeralStorage());
      for (var name : FilterFixtures.EXTENDED_NAMES) {
        overflows(
            expected, name, requested.extended(name), after.extended(name), node.allocatable().extended(name));
      }
    }

    var reasons = filter.insufficientResources(pod, node);

    assertEquals(expected, reasons.stream().map(InsufficientResource::resource).toList());
    assertEquals(expected.isEmpty(), filter.filter(pod, node).fits());
    Statistics.label("reasons").collect(Math.min(reasons.size(), 2));
    Statistics.label("reasons")
        .coverage(
            c -> {
              // About 10-15% of draws fit: a bound at 10 failed runs at 9.9%; 5 still proves the case is reached.
              c.check(0).percentage(p -> p > 5);
              c.check(1).percentage(p -> p > 10);
              c.check(2).count(n -> n > 0);
            });
  }

  @Property
  @Label("a rejection is unresolvable iff some request other than the pod slot exceeds the whole allocatable")
  void unresolvableIffARequestExceedsTheAllocatable(
      @ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node) {
    var result = filter.filter(pod, node);
    var reasons = filter.insufficientResources(pod, node);

    boolean tooBig =
        reasons.stream().anyMatch(r -> !r.resource().equals("pods") && r.requested() > r.capacity());
    var expected =
        reasons.isEmpty()
            ? Code.SUCCESS
            : tooBig ? Code.UNSCHEDULABLE_AND_UNRESOLVABLE : Code.UNSCHEDULABLE;
    assertEquals(expected, result.code());
    for (var reason : reasons) {
      assertEquals(
          reason.resource().equals("pods") ? node.pods().size() : usedOf(node.requested(), reason.resource()),
          reason.used());
      assertEquals(usedOf(node.allocatable(), reason.resource()), reason.capacity());
    }
    Statistics.label("code").collect(result.code());
    Statistics.label("code")
        .coverage(
            c -> {
              c.check(Code.SUCCESS).count(n -> n > 0);
              c.check(Code.UNSCHEDULABLE).count(n -> n > 0);
              c.check(Code.UNSCHEDULABLE_AND_UNRESOLVABLE).count(n -> n > 0);
            });
  }

  @Property
  @Label("one more pod on the node never admits a pod, more allocatable never rejects one")
  void monotonic(
      @ForAll("pods") PodInfo pod,
      @ForAll("nodes") NodeInfo node,
      @ForAll("pods") PodInfo another,
      @ForAll("allocatable") Resources more) {
    boolean fits = filter.filter(pod, node).fits();
    var bigger =
        node("n")
            .allocatable(node.allocatable().plus(more))
            .pods(node.pods())
            .build();

    assertTrue(fits || !filter.filter(pod, node.withPod(another)).fits());
    assertTrue(!fits || filter.filter(pod, bigger).fits());
    Statistics.label("fits").collect(fits);
    Statistics.label("fits").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  @Property
  @Label("ignoring a resource group drops exactly the reasons of that group's extended resources")
  void ignoredGroupsDropTheirReasons(@ForAll("pods") PodInfo pod, @ForAll("nodes") NodeInfo node) {
    var ignoring = new NodeResourcesFitFilter(List.of(), List.of("example.com"));

    var all = filter.insufficientResources(pod, node);
    var kept = ignoring.insufficientResources(pod, node);

    // Ignored resources still count as requested for the early return of a pod that requests nothing, as in
    // Kubernetes: only their own reasons go.
    assertEquals(all.stream().filter(r -> !r.resource().startsWith("example.com/")).toList(), kept);
    Statistics.label("a group resource was dropped").collect(all.size() > kept.size());
    Statistics.label("a group resource was dropped").coverage(c -> {
      c.check(true).count(n -> n > 0);
      c.check(false).count(n -> n > 0);
    });
  }

  private static void overflows(
      List<String> reasons, String resource, long requested, long after, long allocatable) {
    if (requested > 0 && after > allocatable) {
      reasons.add(resource);
    }
  }

  private static long usedOf(Resources resources, String name) {
    return switch (name) {
      case "cpu" -> resources.milliCpu();
      case "memory" -> resources.memory();
      case "ephemeral-storage" -> resources.ephemeralStorage();
      case "pods" -> resources.pods();
      default -> resources.extended(name);
    };
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return FilterFixtures.resources(Arbitraries.just(1L)).map(r -> pod().requests(r).build());
  }

  @Provide
  Arbitrary<Resources> allocatable() {
    return FilterFixtures.resources(Arbitraries.longs().between(0, 3));
  }

  @Provide
  Arbitrary<NodeInfo> nodes() {
    var roomier = allocatable().map(r -> r.plus(new Resources(4, 4, 4, 0, Map.of())));
    return Combinators.combine(roomier, pods().list().ofMaxSize(2))
        .as((allocatable, pods) -> node("n").allocatable(allocatable).pods(pods).build());
  }
}
