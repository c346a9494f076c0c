package io.kubesched.simulation;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.PodInfo;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * How many copies of a pod the cluster can take ({@link Simulation#capacity}). Immutable.
 *
 * @param template the pod copied
 * @param count how many copies fit, one after the other
 * @param stopReason why the next copy fits nowhere, as kube-scheduler words it (for example {@code 0/3 nodes are
 *     available: 3 Insufficient cpu.}); empty when the limit was reached first
 * @param result the simulation: every copy tried (the last one pending unless the limit was reached) and every
 *     node's usage after
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record Capacity(PodInfo template, int count, String stopReason, SimulationResult result) {

  /** @return whether the simulation stopped at its limit rather than at a copy that fits nowhere */
  public boolean limitReached() {
    return stopReason.isEmpty();
  }

  /** @return how many copies each node takes, for the nodes that take at least one, in the nodes' order */
  public Map<String, Integer> perNode() {
    var perNode = new LinkedHashMap<String, Integer>();
    result.nodes().stream().filter(n -> n.placed() > 0).forEach(n -> perNode.put(n.name(), n.placed()));
    return perNode;
  }
}
