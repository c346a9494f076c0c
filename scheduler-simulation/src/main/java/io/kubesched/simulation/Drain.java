package io.kubesched.simulation;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodDisruptionBudget;
import io.kubesched.api.PodInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Whether nodes can be emptied, and where each of their pods would go ({@link Simulation#drain}). Immutable.
 *
 * @param nodes the nodes drained
 * @param moves one per pod evicted or refused eviction, in the nodes' order, then the pods' on each node
 * @param result the simulation of the evicted pods on the cluster with the drained nodes cordoned
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record Drain(List<String> nodes, List<Move> moves, SimulationResult result) {

  /** The kind of owner whose pods a drain leaves where they are (kubectl drain's {@code --ignore-daemonsets}). */
  public static final String DAEMON_SET = "DaemonSet";

  public Drain {
    nodes = List.copyOf(nodes);
    moves = List.copyOf(moves);
  }

  /**
   * One pod of a drained node.
   *
   * @param from the node it is on
   * @param to the node it would go to; null when it cannot move
   * @param reason why it cannot move (a budget that allows no disruption, no controller, or kube-scheduler's
   *     message when no node fits it); empty when it moves
   */
  public record Move(PodInfo pod, String from, @Nullable String to, String reason) {

    /** @return whether the pod would be evicted and placed on another node */
    public boolean moves() {
      return to != null;
    }
  }

  /** @return whether every pod of the nodes can be evicted and placed elsewhere */
  public boolean drainable() {
    return moves.stream().allMatch(Move::moves);
  }

  /** @return the pods that cannot move, with why */
  public List<Move> blocked() {
    return moves.stream().filter(m -> !m.moves()).toList();
  }

  static Drain plan(ClusterSnapshot cluster, FinderFunc finder, Collection<String> nodeNames) {
    var drained = new LinkedHashSet<String>(nodeNames);
    for (var name : drained) {
      if (cluster.node(name).isEmpty()) {
        throw new IllegalArgumentException("no node named '" + name + "' in the cluster (" + cluster.nodes().size()
            + " nodes) to drain");
      }
    }
    var budgets = new Budgets(cluster.disruptionBudgets());
    var refused = new HashMap<String, Move>();
    var evicted = new ArrayList<PodInfo>();
    var from = new HashMap<String, String>();
    var nodes = new ArrayList<NodeInfo>(cluster.nodes().size());
    var order = new ArrayList<PodInfo>();
    for (var node : cluster.nodes()) {
      if (!drained.contains(node.name())) {
        nodes.add(node);
        continue;
      }
      var staying = node;
      for (var pod : node.pods()) {
        if (pod.terminating() || pod.controller().map(o -> DAEMON_SET.equals(o.kind())).orElse(false)) {
          continue; // leaving already, or left by a drain
        }
        order.add(pod);
        var why = pod.controller().isEmpty()
            ? "pod " + pod.key() + " has no controller: evicting it would delete it for good"
            : budgets.refusal(pod);
        if (why != null) {
          refused.put(pod.uid(), new Move(pod, node.name(), null, why));
          continue;
        }
        staying = staying.withoutPod(pod.uid());
        evicted.add(pod.toBuilder().nodeName("").nominatedNodeName("").build());
        from.put(pod.uid(), node.name());
      }
      nodes.add(Simulation.cordon(staying));
    }
    var replay = new Replay(cluster.withNodes(nodes), finder);
    replay.place(evicted);
    var result = replay.result();
    var moves = new ArrayList<Move>(order.size());
    for (var pod : order) {
      var move = refused.get(pod.uid());
      if (move == null) {
        var outcome = result.outcome(pod).orElseThrow();
        move = outcome instanceof PodOutcome.Placed placed
            ? new Move(pod, from.get(pod.uid()), placed.nodeName(), "")
            : new Move(pod, from.get(pod.uid()), null, ((PodOutcome.Pending) outcome).message());
      }
      moves.add(move);
    }
    return new Drain(List.copyOf(drained), moves, result);
  }

  /**
   * The PodDisruptionBudgets' room left as a drain evicts pods one by one: an eviction costs one disruption of
   * every budget that protects the pod, unless the budget counts the pod as disrupted already (the eviction API's
   * rule).
   */
  private static final class Budgets {
    private final List<PodDisruptionBudget> budgets;
    private final Map<PodDisruptionBudget, Integer> left = new HashMap<>();

    Budgets(List<PodDisruptionBudget> budgets) {
      this.budgets = budgets;
      budgets.forEach(b -> left.put(b, b.disruptionsAllowed()));
    }

    /** @return why {@code pod} cannot be evicted; null after taking one disruption from each budget that protects it */
    @Nullable String refusal(PodInfo pod) {
      var protecting = budgets.stream()
          .filter(b -> b.protects(pod) && !b.disruptedPods().contains(pod.name()))
          .toList();
      for (var budget : protecting) {
        if (left.get(budget) < 1) {
          return "evicting pod " + pod.key() + " would violate PodDisruptionBudget " + budget.namespace() + "/"
              + budget.name() + " (" + budget.disruptionsAllowed() + " disruptions allowed, "
              + (budget.disruptionsAllowed() - left.get(budget)) + " taken by this drain)";
        }
      }
      protecting.forEach(b -> left.merge(b, -1, Integer::sum));
      return null;
    }
  }
}
