package io.kubesched.simulation;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.PodInfo;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a simulation placed: every pod it was given, in the order given, with its outcome; every node with its usage
 * at the end; and the pods that were on the cluster before and were evicted by preemption. Immutable.
 *
 * @param pods one outcome per pod the simulation was given, in the order given
 * @param nodes every node at the end, in the snapshot's order (added nodes last)
 * @param evicted the pods of the cluster (not of the simulation) that preemption evicted, each with the pod it made
 *     room for: {@link PodOutcome.Preempted}
 * @param attempts how many scheduling attempts the simulation made (a pod retried after a change counts again)
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record SimulationResult(
    List<PodOutcome> pods, List<NodeUsage> nodes, List<PodOutcome.Preempted> evicted, int attempts) {

  public SimulationResult {
    pods = List.copyOf(pods);
    nodes = List.copyOf(nodes);
    evicted = List.copyOf(evicted);
  }

  /** @return the pods placed, in the order given */
  public List<PodOutcome.Placed> placed() {
    return pods.stream().filter(PodOutcome.Placed.class::isInstance).map(PodOutcome.Placed.class::cast).toList();
  }

  /** @return the pods left pending, in the order given */
  public List<PodOutcome.Pending> pending() {
    return pods.stream().filter(PodOutcome.Pending.class::isInstance).map(PodOutcome.Pending.class::cast).toList();
  }

  /** @return the outcome of the pod {@code namespace/name}, if the simulation was given it */
  public Optional<PodOutcome> outcome(String key) {
    return pods.stream().filter(o -> o.pod().key().equals(key)).findFirst();
  }

  /** @return the outcome of {@code pod}, found by its uid */
  public Optional<PodOutcome> outcome(PodInfo pod) {
    return pods.stream().filter(o -> o.pod().uid().equals(pod.uid())).findFirst();
  }

  /** @return for example {@code 12 placed, 3 pending, 1 preempted, 0 evicted (17 attempts)} */
  @Override
  public String toString() {
    long preempted = pods.stream().filter(PodOutcome.Preempted.class::isInstance).count();
    return placed().size() + " placed, " + pending().size() + " pending, " + preempted + " preempted, "
        + evicted.size() + " evicted (" + attempts + " attempts)";
  }
}
