package io.kubesched.simulation;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One simulation under two policies ({@link Simulation.Builder#compareWith}). Immutable.
 *
 * @param current the result under the policy the simulation was built with
 * @param candidate the result under the candidate policy
 * @param differences the pods the two place differently (another node, or placed by one and not the other), in the
 *     order given
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record PolicyComparison(
    SimulationResult current, SimulationResult candidate, List<Difference> differences) {

  public PolicyComparison {
    differences = List.copyOf(differences);
  }

  /**
   * A pod placed differently.
   *
   * @param current its outcome under the current policy
   * @param candidate its outcome under the candidate
   */
  public record Difference(PodInfo pod, PodOutcome current, PodOutcome candidate) {}

  static PolicyComparison of(SimulationResult current, SimulationResult candidate) {
    var differences = new ArrayList<Difference>();
    for (int i = 0; i < current.pods().size(); i++) {
      var before = current.pods().get(i);
      var after = candidate.pods().get(i);
      if (!Objects.equals(nodeOf(before), nodeOf(after))) {
        differences.add(new Difference(before.pod(), before, after));
      }
    }
    return new PolicyComparison(current, candidate, differences);
  }

  /** @return the node a pod ends on; null when it ends on none (pending, or preempted) */
  private static @Nullable String nodeOf(PodOutcome outcome) {
    return outcome instanceof PodOutcome.Placed placed ? placed.nodeName() : null;
  }
}
