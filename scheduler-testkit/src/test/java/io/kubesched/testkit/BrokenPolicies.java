package io.kubesched.testkit;

import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitrary;

/**
 * Policies that each break one rule of {@link PolicyContract}, for {@link PolicyContractTest} to run the
 * contract on and check that it fails where it should. Neither this class nor its nested ones match
 * surefire's includes: they run only through the engine test kit.
 */
final class BrokenPolicies {

  private BrokenPolicies() {}

  /** First-fit's filter is the one each of these policies must respect. */
  interface FirstFitFilter extends PolicyContract {
    @Override
    default boolean feasible(PodInfo pod, NodeInfo node) {
      return FirstFit.fits(pod, node);
    }
  }

  /** When nothing fits, binds to a node of its own invention. */
  static class BindsToANodeItWasNotGiven implements FirstFitFilter {
    @Override
    public FinderFunc policy(long seed) {
      return (pod, nodes) ->
          FirstFit.find(pod, nodes) instanceof Decision.Bind bind ? bind : Decision.bind("node-elsewhere");
    }
  }

  /** Binds to the first node whether the pod fits there or not. */
  static class BindsToAnInfeasibleNode implements FirstFitFilter {
    @Override
    public FinderFunc policy(long seed) {
      return (pod, nodes) -> nodes.isEmpty() ? FirstFit.find(pod, nodes) : Decision.bind(nodes.get(0).name());
    }
  }

  /** When nothing fits, explains only why the first node does not. */
  static class ExplainsOnlyTheFirstNode implements FirstFitFilter {
    @Override
    public FinderFunc policy(long seed) {
      return (pod, nodes) -> {
        var decision = FirstFit.find(pod, nodes);
        if (decision instanceof Decision.Unschedulable && !nodes.isEmpty()) {
          var first = nodes.get(0);
          return Decision.unschedulable(Map.of(first.name(), FirstFit.reasons(pod, first)));
        }
        return decision;
      };
    }
  }

  /** Picks at random among the nodes that fit, from a source it does not seed. */
  static class IgnoresTheSeed implements FirstFitFilter {
    @Override
    public FinderFunc policy(long seed) {
      var random = new Random();
      return (pod, nodes) -> {
        var fitting = nodes.stream().filter(node -> FirstFit.fits(pod, node)).toList();
        return fitting.isEmpty()
            ? FirstFit.find(pod, nodes)
            : Decision.bind(fitting.get(random.nextInt(fitting.size())).name());
      };
    }
  }

  /** Tries the node with the most CPU first, starting its search from a first node an empty cluster lacks. */
  static class ThrowsOnAnEmptyCluster implements FirstFitFilter {
    @Override
    public FinderFunc policy(long seed) {
      return (pod, nodes) -> {
        var largest = nodes.get(0);
        for (var node : nodes) {
          if (node.allocatable().milliCpu() > largest.allocatable().milliCpu()) {
            largest = node;
          }
        }
        return FirstFit.fits(pod, largest) ? Decision.bind(largest.name()) : FirstFit.find(pod, nodes);
      };
    }
  }

  /** Writes its reasons as sentences, with a final period. */
  static class EndsItsReasonsWithAPeriod implements FirstFitFilter {
    @Override
    public FinderFunc policy(long seed) {
      return (pod, nodes) -> {
        if (FirstFit.find(pod, nodes) instanceof Decision.Bind bind) {
          return bind;
        }
        var reasons = new LinkedHashMap<String, List<String>>();
        for (var node : nodes) {
          reasons.put(node.name(), FirstFit.reasons(pod, node).stream().map(r -> r + ".").toList());
        }
        return Decision.unschedulable(reasons);
      };
    }
  }

  /**
   * A correct policy tried only on clusters with a node and with the default filter (every node), so
   * that no scenario lacks a feasible node: the contract must refuse to pass on such one-sided input.
   */
  static class NeverTriedWithoutAFeasibleNode implements PolicyContract {
    @Override
    public FinderFunc policy(long seed) {
      return FirstFit::find;
    }

    @Override
    public Arbitrary<Scenario> scenarios() {
      return KubeArbitraries.scenarios().ofClusterSize(1, 4);
    }
  }
}
