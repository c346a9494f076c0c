package io.kubesched.server;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.facade.Controller;
import io.kubesched.policy.Texts;
import io.kubesched.simulation.Capacity;
import io.kubesched.simulation.Drain;
import io.kubesched.simulation.NodeUsage;
import io.kubesched.simulation.PodOutcome;
import io.kubesched.simulation.PolicyComparison;
import io.kubesched.simulation.Simulation;
import io.kubesched.simulation.SimulationResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The what-if questions that {@code kubesched-server simulate} and {@code /debug/whatif/*} answer, over one view of
 * the cluster, with their answers as a text table and as JSON (the shapes are in docs/what-if.md, and are kept:
 * fields may be added, none renamed or removed). Nothing here writes to the cluster: the simulations run on the
 * view. Pure; thread-safe.
 */
final class WhatIf {

  private WhatIf() {}

  /**
   * The cluster as a scheduler sees it, and the profile asked about.
   *
   * @param cluster the nodes, with their pods, and what the policies read
   * @param pending the profile's pods that wait to be placed, in queue order
   * @param profile the scheduler name whose policy places the pods
   * @param policy that profile's policy
   * @param groups the pod group objects the scheduler knows
   * @param groupSources the sources of pod groups it watches (members of others are placed one by one)
   */
  record View(
      ClusterSnapshot cluster, List<PodInfo> pending, String profile, FinderFunc policy, List<PodGroup> groups,
      Set<PodGroupRef.Source> groupSources) {
    View {
      Objects.requireNonNull(cluster, "cluster");
      pending = List.copyOf(pending);
      Objects.requireNonNull(profile, "profile");
      Objects.requireNonNull(policy, "policy");
      groups = List.copyOf(groups);
      groupSources = Set.copyOf(groupSources);
    }

    /** @return a running controller's view of the profile {@code profile}: its pending pods, its policy now */
    static View of(Controller controller, String profile) {
      var pending = controller.pendingPods().stream().filter(p -> p.schedulerName().equals(profile)).toList();
      return new View(controller.snapshot(), pending, profile, controller.policy(profile), controller.podGroups(),
          controller.podGroupSources());
    }

    /** @return this view with no pending pods */
    View withoutPending() {
      return new View(cluster, List.of(), profile, policy, groups, groupSources);
    }
  }

  /** An answer, printable both ways. */
  record Answer(String table, Map<String, Object> json) {
    Answer {
      Objects.requireNonNull(table, "table");
      json = Collections.unmodifiableMap(new LinkedHashMap<>(json));
    }
  }

  /**
   * How many copies of {@code template} fit, one after the other, without preemption.
   *
   * @throws IllegalArgumentException if {@code limit} is below 1
   */
  static Answer capacity(View view, PodInfo template, int limit) {
    var capacity = Simulation.capacity(view.cluster(), view.policy(), template, limit);
    var table = new StringBuilder();
    table.append(capacity.count()).append(capacity.count() == 1 ? " copy" : " copies").append(" of ")
        .append(template.key()).append(" (").append(requests(template.requests())).append(" each) fit")
        .append(", placed by profile ").append(view.profile()).append(".\n");
    var rows = new ArrayList<List<String>>();
    rows.add(List.of("NODE", "COPIES"));
    capacity.perNode().forEach((node, copies) -> rows.add(List.of(node, Integer.toString(copies))));
    if (capacity.count() > 0) {
      table.append(Texts.table(rows));
    }
    table.append(capacity.limitReached()
        ? "Stopped at the limit of " + limit + " copies; more may fit (--limit).\n"
        : "The next copy fits nowhere: " + capacity.stopReason() + "\n");
    var json = question("capacity", view);
    json.put("pod", template.key());
    json.put("count", capacity.count());
    json.put("limit", limit);
    json.put("limitReached", capacity.limitReached());
    json.put("perNode", new LinkedHashMap<String, Object>(capacity.perNode()));
    json.put("stopReason", capacity.limitReached() ? "" : capacity.stopReason());
    return new Answer(table.toString(), json);
  }

  /**
   * Whether {@code nodes} can be emptied and where each of their pods would go, without preemption and within
   * the PodDisruptionBudgets the view holds.
   *
   * @throws IllegalArgumentException naming the node, if one is not in the view
   */
  static Answer drain(View view, List<String> nodes) {
    Drain drain = Simulation.drain(view.cluster(), view.policy(), nodes);
    var blocked = drain.blocked().size();
    var table = new StringBuilder();
    table.append(drain.drainable()
            ? "Node(s) " + String.join(", ", nodes) + " can be drained: " + pods(drain.moves().size()) + " move"
                + (drain.moves().size() == 1 ? "s" : "")
            : "Node(s) " + String.join(", ", nodes) + " cannot be drained: " + blocked + " of "
                + pods(drain.moves().size()) + " cannot move")
        .append(", placed by profile ").append(view.profile()).append(".\n");
    var rows = new ArrayList<List<String>>();
    rows.add(List.of("POD", "FROM", "TO", "WHY NOT"));
    var moves = new ArrayList<Object>();
    for (var move : drain.moves()) {
      rows.add(List.of(move.pod().key(), move.from(), move.to() == null ? "-" : move.to(), move.reason()));
      var entry = new LinkedHashMap<String, Object>();
      entry.put("pod", move.pod().key());
      entry.put("from", move.from());
      entry.put("to", move.to());
      entry.put("reason", move.reason());
      moves.add(entry);
    }
    if (!drain.moves().isEmpty()) {
      table.append(Texts.table(rows));
    }
    var json = question("drain", view);
    json.put("nodes", List.copyOf(nodes));
    json.put("drainable", drain.drainable());
    json.put("moves", moves);
    return new Answer(table.toString(), json);
  }

  /**
   * Places the profile's pending pods, then {@code added}, as the scheduler would, binding nothing.
   *
   * @param preemption whether preemption may evict pods (reported, nothing deleted)
   * @throws IllegalArgumentException naming the pod, if one is bound or two share a uid
   */
  static Answer pods(View view, List<PodInfo> added, boolean preemption) {
    var result = simulation(view, added, preemption).run();
    var table = new StringBuilder(outcomes(result)).append(summary(result)).append(", placed by profile ")
        .append(view.profile()).append(".\n");
    var used = usage(result);
    if (!used.isEmpty()) {
      table.append('\n').append(Texts.table(used));
    }
    var json = question("pods", view);
    json.putAll(result(result));
    return new Answer(table.toString(), json);
  }

  /**
   * Places the profile's pending pods, then {@code added}, once with the profile's policy and once with {@code
   * candidate}, and sets the two side by side.
   */
  static Answer compare(View view, List<PodInfo> added, FinderFunc candidate, boolean preemption) {
    PolicyComparison comparison = simulation(view, added, preemption).compareWith(candidate);
    var rows = new ArrayList<List<String>>();
    rows.add(List.of("POD", "CURRENT", "CANDIDATE", ""));
    var differences = new ArrayList<Object>();
    var changed = comparison.differences().stream().map(d -> d.pod().uid()).collect(Collectors.toSet());
    for (var current : comparison.current().pods()) {
      var candidateOutcome = comparison.candidate().outcome(current.pod()).orElseThrow();
      boolean differs = changed.contains(current.pod().uid());
      rows.add(List.of(current.pod().key(), brief(current), brief(candidateOutcome), differs ? "*" : ""));
      if (differs) {
        var entry = new LinkedHashMap<String, Object>();
        entry.put("pod", current.pod().key());
        entry.put("current", outcome(current));
        entry.put("candidate", outcome(candidateOutcome));
        differences.add(entry);
      }
    }
    var table = new StringBuilder();
    table.append(comparison.current().pods().isEmpty() ? "No pods to place.\n" : Texts.table(rows));
    table.append(differences.size()).append(" of ").append(pods(comparison.current().pods().size()))
        .append(" placed differently (*). Current policy of profile ").append(view.profile()).append(": ")
        .append(summary(comparison.current())).append("; candidate: ").append(summary(comparison.candidate()))
        .append(".\n");
    var json = question("compare", view);
    json.put("current", result(comparison.current()));
    json.put("candidate", result(comparison.candidate()));
    json.put("differences", differences);
    return new Answer(table.toString(), json);
  }

  private static Simulation.Builder simulation(View view, List<PodInfo> added, boolean preemption) {
    var all = new ArrayList<PodInfo>(view.pending());
    all.addAll(added);
    var simulation = Simulation.of(view.cluster(), view.policy())
        .podGroups(view.groups())
        .podGroupSources(view.groupSources())
        .pods(all);
    return preemption ? simulation : simulation.withoutPreemption();
  }

  private static LinkedHashMap<String, Object> question(String question, View view) {
    var json = new LinkedHashMap<String, Object>();
    json.put("question", question);
    json.put("profile", view.profile());
    return json;
  }

  private static String outcomes(SimulationResult result) {
    if (result.pods().isEmpty()) {
      return "No pods to place: the profile has none pending and none were given.\n";
    }
    var rows = new ArrayList<List<String>>();
    rows.add(List.of("POD", "OUTCOME", "NODE", "MESSAGE"));
    for (var outcome : result.pods()) {
      if (outcome instanceof PodOutcome.Placed placed) {
        rows.add(List.of(placed.pod().key(), "placed", placed.nodeName(), placed.preempted().isEmpty() ? ""
            : "preempting " + String.join(", ", placed.preempted().stream().map(PodInfo::key).toList())));
      } else if (outcome instanceof PodOutcome.Pending pending) {
        rows.add(List.of(pending.pod().key(), "pending",
            pending.nominatedNodeName().isEmpty() ? "-" : "(" + pending.nominatedNodeName() + ")", pending.message()));
      } else {
        var preempted = (PodOutcome.Preempted) outcome;
        rows.add(List.of(preempted.pod().key(), "preempted", preempted.nodeName(),
            "evicted for " + preempted.preemptor()));
      }
    }
    return Texts.table(rows);
  }

  private static String summary(SimulationResult result) {
    long preempted = result.pods().stream().filter(PodOutcome.Preempted.class::isInstance).count();
    var text = result.placed().size() + " placed, " + result.pending().size() + " pending";
    if (preempted > 0) {
      text += ", " + preempted + " preempted";
    }
    if (!result.evicted().isEmpty()) {
      text += ", " + pods(result.evicted().size()) + " of the cluster evicted";
    }
    return text + " (" + result.attempts() + (result.attempts() == 1 ? " attempt)" : " attempts)");
  }

  /** The nodes the simulation placed pods on, with what they hold at the end. */
  private static List<List<String>> usage(SimulationResult result) {
    var rows = new ArrayList<List<String>>();
    for (var node : result.nodes()) {
      if (node.placed() > 0) {
        rows.add(List.of(node.name(),
            Texts.cpu(node.requested().milliCpu()) + "/" + Texts.cpu(node.allocatable().milliCpu()),
            Texts.bytes(node.requested().memory()) + "/" + Texts.bytes(node.allocatable().memory()),
            node.pods() + "/" + node.allocatable().pods(), Integer.toString(node.placed())));
      }
    }
    if (!rows.isEmpty()) {
      rows.add(0, List.of("NODE", "CPU", "MEMORY", "PODS", "PLACED"));
    }
    return rows;
  }

  private static Map<String, Object> result(SimulationResult result) {
    var json = new LinkedHashMap<String, Object>();
    json.put("pods", result.pods().stream().map(WhatIf::outcome).toList());
    var evicted = new ArrayList<Object>();
    for (var pod : result.evicted()) {
      evicted.add(outcome(pod));
    }
    json.put("evicted", evicted);
    var nodes = new ArrayList<Object>();
    for (var node : result.nodes()) {
      if (node.placed() > 0) {
        nodes.add(node(node));
      }
    }
    json.put("nodes", nodes);
    var summary = new LinkedHashMap<String, Object>();
    summary.put("placed", result.placed().size());
    summary.put("pending", result.pending().size());
    summary.put("preempted", result.pods().stream().filter(PodOutcome.Preempted.class::isInstance).count());
    summary.put("evicted", result.evicted().size());
    summary.put("attempts", result.attempts());
    json.put("summary", summary);
    return json;
  }

  private static Map<String, Object> outcome(PodOutcome outcome) {
    var json = new LinkedHashMap<String, Object>();
    json.put("pod", outcome.pod().key());
    if (outcome instanceof PodOutcome.Placed placed) {
      json.put("outcome", "placed");
      json.put("node", placed.nodeName());
      json.put("preempted", placed.preempted().stream().map(PodInfo::key).toList());
    } else if (outcome instanceof PodOutcome.Pending pending) {
      json.put("outcome", "pending");
      json.put("node", null);
      json.put("message", pending.message());
      json.put("nominatedNode", pending.nominatedNodeName().isEmpty() ? null : pending.nominatedNodeName());
    } else {
      var preempted = (PodOutcome.Preempted) outcome;
      json.put("outcome", "preempted");
      json.put("node", preempted.nodeName());
      json.put("preemptor", preempted.preemptor());
    }
    return json;
  }

  private static Map<String, Object> node(NodeUsage node) {
    var json = new LinkedHashMap<String, Object>();
    json.put("node", node.name());
    json.put("placed", node.placed());
    json.put("pods", node.pods());
    json.put("requested", resources(node.requested()));
    json.put("allocatable", resources(node.allocatable()));
    json.put("unschedulable", node.unschedulable());
    return json;
  }

  private static Map<String, Object> resources(Resources resources) {
    var json = new LinkedHashMap<String, Object>();
    json.put("cpu", Texts.cpu(resources.milliCpu()));
    json.put("memory", Texts.bytes(resources.memory()));
    json.put("pods", resources.pods());
    return json;
  }

  /** @return for example {@code node-a}, {@code pending}, {@code evicted} */
  private static String brief(PodOutcome outcome) {
    if (outcome instanceof PodOutcome.Placed placed) {
      return placed.nodeName();
    }
    return outcome instanceof PodOutcome.Pending ? "pending" : "evicted from " + ((PodOutcome.Preempted) outcome).nodeName();
  }

  private static String requests(Resources requests) {
    return "cpu " + Texts.cpu(requests.milliCpu()) + ", memory " + Texts.bytes(requests.memory());
  }

  private static String pods(int count) {
    return count + (count == 1 ? " pod" : " pods");
  }
}
