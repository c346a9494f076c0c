package io.kubesched.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodInfo;
import io.kubesched.api.TopologySpreadConstraint;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import net.jqwik.api.arbitraries.ArbitraryDecorator;
import org.apiguardian.api.API;

/**
 * Pending pods of {@link KubeArbitraries#pods()}, optionally carrying the constraints that involve other
 * pods: pod affinity, pod anti-affinity, topology spread constraints, and scheduling gates. Without an
 * option the pods are exactly those {@link KubeArbitraries#pods()} always gave.
 *
 * <p>With an option, about half the pods carry the constraint (a quarter for gates), so that the pods
 * without it are tried as well. Selectors are drawn as {@link KubeArbitraries#labelSelectorsOrNull()} are,
 * and in about four of ten cases they are the pod's own labels (the empty selector for a pod without labels),
 * as a workload's replicas select each other: that makes the self-affinity case (the first pod of a group
 * that must be near its own kind) common.
 *
 * <p>Immutable: a configuring method returns a new arbitrary and leaves this one as it was.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class PodArbitrary extends ArbitraryDecorator<PodInfo> {

  private boolean podAffinity;
  private boolean podAntiAffinity;
  private boolean topologySpread;
  private boolean schedulingGates;

  PodArbitrary() {}

  /** @return pods of which about half carry {@link KubeArbitraries#podAffinities() pod affinity} */
  public PodArbitrary withPodAffinity() {
    PodArbitrary clone = typedClone();
    clone.podAffinity = true;
    return clone;
  }

  /** @return pods of which about half carry pod anti-affinity, drawn as {@link KubeArbitraries#podAffinities()} */
  public PodArbitrary withPodAntiAffinity() {
    PodArbitrary clone = typedClone();
    clone.podAntiAffinity = true;
    return clone;
  }

  /**
   * @return pods of which about half carry one to three {@link KubeArbitraries#topologySpreadConstraints()
   *     spread constraints}, unique by topology key and action as the API server demands
   */
  public PodArbitrary withTopologySpread() {
    PodArbitrary clone = typedClone();
    clone.topologySpread = true;
    return clone;
  }

  /** @return pods of which about one in four carries {@link KubeArbitraries#schedulingGates() scheduling gates} */
  public PodArbitrary withSchedulingGates() {
    PodArbitrary clone = typedClone();
    clone.schedulingGates = true;
    return clone;
  }

  /** @return pods with every option: pod affinity, anti-affinity, topology spread and scheduling gates */
  public PodArbitrary withPlacementConstraints() {
    return withPodAffinity().withPodAntiAffinity().withTopologySpread().withSchedulingGates();
  }

  @Override
  protected Arbitrary<PodInfo> arbitrary() {
    var plain = KubeArbitraries.plainPods();
    if (!podAffinity && !podAntiAffinity && !topologySpread && !schedulingGates) {
      return plain;
    }
    var none = Arbitraries.just((PlacementDraws.ForPod<PodAffinity>) labels -> PodAffinity.NONE);
    var affinity = podAffinity ? PlacementDraws.affinitiesOrNone(true, 1, 1) : none;
    var antiAffinity = podAntiAffinity ? PlacementDraws.affinitiesOrNone(true, 1, 1) : none;
    var spread =
        topologySpread
            ? PlacementDraws.spreadConstraintListsOrNone(true, 1, 1)
            : Arbitraries.just((PlacementDraws.ForPod<List<TopologySpreadConstraint>>) labels -> List.of());
    var gates =
        schedulingGates
            ? Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(List.<String>of())), Tuple.of(1, PlacementDraws.gates()))
            : Arbitraries.just(List.<String>of());
    return Combinators.combine(plain, affinity, antiAffinity, spread, gates)
        .as(
            (pod, a, anti, s, g) -> {
              Map<String, String> labels = pod.labels();
              return pod.toBuilder()
                  .podAffinity(a.apply(labels))
                  .podAntiAffinity(anti.apply(labels))
                  .topologySpreadConstraints(s.apply(labels))
                  .schedulingGates(g)
                  .build();
            })
        .withoutEdgeCases();
  }
}
