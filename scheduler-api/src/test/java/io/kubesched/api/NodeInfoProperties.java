package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class NodeInfoProperties {

  @Property
  @Label("requested is each resource summed over the pods, capped at Long.MAX_VALUE")
  void requestedIsTheSumOfThePods(@ForAll("pods") List<PodInfo> pods) {
    var node = NodeInfo.of("n1", Map.of(), List.of(), false, Resources.ZERO, pods);

    var cpu = BigInteger.ZERO;
    var memory = BigInteger.ZERO;
    var gpus = BigInteger.ZERO;
    for (var pod : pods) {
      cpu = cpu.add(BigInteger.valueOf(pod.requests().milliCpu()));
      memory = memory.add(BigInteger.valueOf(pod.requests().memory()));
      gpus = gpus.add(BigInteger.valueOf(pod.requests().extended("nvidia.com/gpu")));
    }
    assertEquals(capped(cpu), node.requested().milliCpu());
    assertEquals(capped(memory), node.requested().memory());
    assertEquals(capped(gpus), node.requested().extended("nvidia.com/gpu"));
    assertEquals(pods.size(), node.requested().pods());
    assertEquals(pods, node.pods());
  }

  @Property
  @Label("adding pods one by one with withPod gives the node made of all of them")
  void withPodAgreesWithOf(@ForAll("pods") List<PodInfo> pods) {
    var node = NodeInfo.of("n1", Map.of("zone", "a"), List.of(), true, Resources.of(4000, 1 << 30), List.of());
    for (var pod : pods) {
      node = node.withPod(pod);
    }

    assertEquals(NodeInfo.of("n1", Map.of("zone", "a"), List.of(), true, Resources.of(4000, 1 << 30), pods), node);
  }

  @Property
  @Label("withoutPod gives the node made of the other pods, when no sum saturated")
  void withoutPodAgreesWithOf(@ForAll("pods") List<PodInfo> pods, @ForAll @IntRange(max = 5) int which) {
    Assume.that(!pods.isEmpty());
    var uniquePods = new ArrayList<PodInfo>();
    for (int i = 0; i < pods.size(); i++) {
      uniquePods.add(pods.get(i).toBuilder().uid("uid-" + i).build());
    }
    var node = NodeInfo.of("n1", Map.of(), List.of(), false, Resources.ZERO, uniquePods);
    Assume.that(node.requested().milliCpu() < Long.MAX_VALUE && node.requested().memory() < Long.MAX_VALUE
        && node.nonZeroRequested().milliCpu() < Long.MAX_VALUE
        && node.nonZeroRequested().memory() < Long.MAX_VALUE);
    int index = which % uniquePods.size();
    var rest = new ArrayList<>(uniquePods);
    var removed = rest.remove(index);

    var without = node.withoutPod(removed.uid());

    assertEquals(NodeInfo.of("n1", Map.of(), List.of(), false, Resources.ZERO, rest), without);
    assertSame(without, without.withoutPod("no-such-uid"), "a pod not on the node: the same node");
  }

  private static long capped(BigInteger exact) {
    return exact.min(BigInteger.valueOf(Long.MAX_VALUE)).longValueExact();
  }

  @Provide
  Arbitrary<List<PodInfo>> pods() {
    var requests =
        Combinators.combine(
                ResourcesProperties.amounts(), ResourcesProperties.amounts(), Arbitraries.longs().between(0, 8))
            .as((cpu, memory, gpus) -> new Resources(cpu, memory, 0, 1, Map.of("nvidia.com/gpu", gpus)));
    var pod =
        Combinators.combine(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(5), requests)
            .as(
                (name, r) ->
                    PodInfo.builder("default", name).requests(r).build());
    return pod.list().ofMaxSize(6);
  }
}
