package io.kubesched.policy;

import static org.apiguardian.api.API.Status.STABLE;

import io.kubesched.api.Decision;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Why a {@link Policy} decided what it did for one pod: every node it looked at, what each filter said of it,
 * and, for the feasible nodes it scored, each scorer's score and the weighted total.
 *
 * @param pod the pod
 * @param decision the decision the policy made
 * @param nodeCount how many nodes the policy was given
 * @param nodes one entry per node, in the order the policy examined them; nodes it did not need to examine
 *     (it stops once it has found enough feasible nodes) are absent
 * @param note what the policy did besides the usual, for example that it did not score because only one node
 *     was feasible; empty if nothing
 * @param preemption what preemption found, when the policy preempts and the pod fit no node; empty otherwise
 */
@API(status = STABLE, since = "0.1.0")
public record Explanation(
    PodInfo pod,
    Decision decision,
    int nodeCount,
    List<NodeExplanation> nodes,
    String note,
    Optional<PreemptionExplanation> preemption) {

  public Explanation {
    nodes = List.copyOf(nodes);
  }

  /** An explanation without preemption. */
  public Explanation(PodInfo pod, Decision decision, int nodeCount, List<NodeExplanation> nodes, String note) {
    this(pod, decision, nodeCount, nodes, note, Optional.empty());
  }

  /**
   * What preemption (kube-scheduler's {@code DefaultPreemption}) found for a pod that fit no node.
   *
   * @param eligibility why the pod may not preempt others (kube's {@code not eligible due to ...}); empty if it
   *     may
   * @param candidates the nodes where evicting pods would let the pod fit, those violating no
   *     PodDisruptionBudget first, as the dry run found them; empty if none (or the pod was not eligible)
   * @param chosenNode the candidate chosen; empty if none
   * @param decidedBy the criterion of kube's {@code pickOneNodeForPreemption} that chose it (e.g. {@code fewest
   *     PDB violations}, {@code the only candidate}); empty if none was chosen
   * @param message preemption's message as it ends the decision's message ({@code preemption: ...})
   */
  public record PreemptionExplanation(
      String eligibility,
      List<PreemptionCandidate> candidates,
      String chosenNode,
      String decidedBy,
      String message) {

    public PreemptionExplanation {
      candidates = List.copyOf(candidates);
    }
  }

  /**
   * A node where evicting pods would let the pod fit.
   *
   * @param node the node's name
   * @param victims the pods to evict, most important first
   * @param pdbViolations how many of them would be evicted against a PodDisruptionBudget
   */
  public record PreemptionCandidate(String node, List<PodInfo> victims, int pdbViolations) {

    public PreemptionCandidate {
      victims = List.copyOf(victims);
    }
  }

  /**
   * What the policy found for one node.
   *
   * @param node the node's name
   * @param filters what each filter said, in the order they ran; the first that did not fit is the last
   * @param scores each scorer's score (after normalisation, before weighting), by scorer name in the order
   *     of the policy's scorers; empty if the node was not scored
   * @param total the weighted sum of the scores; 0 if the node was not scored
   */
  public record NodeExplanation(
      String node, List<FilterOutcome> filters, Map<String, Long> scores, long total) {

    public NodeExplanation {
      filters = List.copyOf(filters);
      scores = Collections.unmodifiableMap(new LinkedHashMap<>(scores));
    }

    /** @return whether every filter accepted the node */
    public boolean feasible() {
      return filters.stream().allMatch(outcome -> outcome.result().fits());
    }
  }

  /**
   * What one filter said of one node.
   *
   * @param filter the filter's name
   * @param result its result
   */
  public record FilterOutcome(String filter, FilterResult result) {}

  /** @return the explanation of {@code node}; empty if the policy did not examine it */
  public Optional<NodeExplanation> node(String node) {
    return nodes.stream().filter(n -> n.node().equals(node)).findFirst();
  }

  /**
   * Renders the explanation as a text table: one row per examined node, the first rejecting filter and its
   * reasons (or {@code fits}), each scorer's score and the total, the chosen node marked with {@code *}; then, if
   * preemption ran, its outcome: why the pod may not preempt, or each candidate with its victims and budget
   * violations (the chosen one marked with {@code *}) and the criterion that chose it.
   */
  public String toTable() {
    var scorerNames = new ArrayList<String>();
    nodes.forEach(n -> n.scores().keySet().stream().filter(s -> !scorerNames.contains(s)).forEach(scorerNames::add));
    var header = new ArrayList<String>(List.of("", "NODE", "FILTERS"));
    scorerNames.forEach(header::add);
    header.add("TOTAL");
    var rows = new ArrayList<List<String>>();
    rows.add(header);
    var chosen = decision instanceof Decision.Bind bind ? bind.nodeName() : "";
    for (var node : nodes) {
      var row = new ArrayList<String>();
      row.add(node.node().equals(chosen) ? "*" : "");
      row.add(node.node());
      row.add(describeFilters(node));
      for (var scorer : scorerNames) {
        var score = node.scores().get(scorer);
        row.add(score == null ? "-" : String.valueOf(score));
      }
      row.add(node.scores().isEmpty() ? "-" : String.valueOf(node.total()));
      rows.add(row);
    }
    var text = new StringBuilder();
    text.append("pod ").append(pod.key()).append(": ").append(describe(decision)).append('\n');
    text.append(Texts.table(rows));
    if (!note.isEmpty()) {
      text.append(note).append('\n');
    }
    preemption.ifPresent(p -> describePreemption(p, text));
    return text.toString();
  }

  private static void describePreemption(PreemptionExplanation preemption, StringBuilder text) {
    if (!preemption.eligibility().isEmpty()) {
      text.append("preemption: ").append(preemption.eligibility()).append('\n');
      return;
    }
    if (preemption.candidates().isEmpty()) {
      text.append("preemption: no candidate: ").append(preemption.message()).append('\n');
      return;
    }
    text.append("preemption: ").append(preemption.candidates().size()).append(" candidate(s)\n");
    for (var candidate : preemption.candidates()) {
      var victims = candidate.victims().stream().map(v -> v.key() + " (priority " + v.priority() + ")").toList();
      text.append(candidate.node().equals(preemption.chosenNode()) ? "* " : "  ")
          .append(candidate.node())
          .append(": victims ")
          .append(String.join(", ", victims))
          .append("; PDB violations ")
          .append(candidate.pdbViolations())
          .append('\n');
    }
    if (!preemption.chosenNode().isEmpty()) {
      text.append("preemption chose ")
          .append(preemption.chosenNode())
          .append(" by ")
          .append(preemption.decidedBy())
          .append('\n');
    }
  }

  private String describe(Decision decision) {
    return decision instanceof Decision.Bind bind
        ? "bind to " + bind.nodeName()
        : ((Decision.Unschedulable) decision).message(nodeCount);
  }

  private static String describeFilters(NodeExplanation node) {
    for (var outcome : node.filters()) {
      if (outcome.result() instanceof FilterResult.Rejected rejected) {
        var reasons = rejected.reasons().stream().map(Reason::message).toList();
        return outcome.filter() + ": " + String.join(", ", reasons);
      }
      if (outcome.result() instanceof FilterResult.Failed failed) {
        return outcome.filter() + ": error: " + failed.message();
      }
    }
    return "fits";
  }
}
