package io.kubesched.policy.plugins.serviceaffinity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.policy.framework.FilterResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

class ServiceAffinityFilterProperties {

  /** A generated cluster: nodes with placed pods, Services, the pod to place and the configured labels. */
  record Scenario(List<NodeInfo> nodes, List<WorkloadSelector> services, PodInfo pod, List<String> labels) {
    ClusterSnapshot cluster() {
      return ClusterSnapshot.of(nodes, Map.of(), services);
    }
  }

  /** A pod already placed: its namespace, labels and the index of its node. */
  record PlacedSpec(String namespace, Map<String, String> labels, int node) {}

  @Property
  @Label("a node is accepted exactly when it carries every label value the pod's selector or its Service fixes")
  void noAcceptedNodeBreaksTheRule(@ForAll("scenarios") Scenario s) {
    var cluster = s.cluster();
    var prepared = new ServiceAffinityFilter(s.labels()).prepare(s.pod(), cluster);

    for (var node : cluster.nodes()) {
      var result = prepared.filter(s.pod(), node);
      var broken = brokenRule(s, node);
      assertEquals(broken == null, result.fits(), () -> node + " broken rule: " + broken);
      if (result instanceof FilterResult.Rejected rejected) {
        assertEquals(FilterResult.Code.UNSCHEDULABLE, rejected.code());
        assertEquals("node(s) didn't match service affinity", rejected.reasons().get(0).message());
      }
      Statistics.label("outcome").collect(broken == null ? "accept" : "reject: " + broken);
    }
    Statistics.label("outcome")
        .coverage(
            c -> {
              c.check("accept").count(n -> n > 0);
              c.check("reject: nodeSelector").count(n -> n > 0);
              c.check("reject: service").count(n -> n > 0);
            });
  }

  @Property
  @Label("pods of a Service placed one by one on accepted nodes agree on every label the first one's node has")
  void servicePodsPlacedOnAcceptedNodesShareTheFirstNodesLabels(
      @ForAll("nodeLists") List<NodeInfo> nodes,
      @ForAll("labelLists") List<String> labels,
      @ForAll("choices") List<Integer> choices) {
    var service = service("ns", Map.of("app", "web"));
    var filter = new ServiceAffinityFilter(labels);
    var current = new ArrayList<>(nodes);
    var chosen = new ArrayList<NodeInfo>();
    for (int i = 0; i < choices.size(); i++) {
      var pod = PodInfo.builder("ns", "web-" + i).labels(Map.of("app", "web")).build();
      var prepared = filter.prepare(pod, ClusterSnapshot.of(current, Map.of(), List.of(service)));
      var accepted = new ArrayList<Integer>();
      for (int n = 0; n < current.size(); n++) {
        if (prepared.filter(pod, current.get(n)).fits()) {
          accepted.add(n);
        }
      }
      Statistics.label("accepted nodes")
          .collect(accepted.size() == current.size() ? "all" : accepted.isEmpty() ? "none" : "some");
      if (accepted.isEmpty()) {
        break;
      }
      int index = accepted.get(choices.get(i) % accepted.size());
      current.set(index, current.get(index).withPod(pod.toBuilder().nodeName(current.get(index).name()).build()));
      chosen.add(current.get(index));
    }
    if (!chosen.isEmpty()) {
      var first = chosen.get(0);
      for (var node : chosen) {
        for (var label : labels) {
          if (first.labels().containsKey(label)) {
            assertEquals(first.labels().get(label), node.labels().get(label), label + " on " + node.name());
          }
        }
      }
    }
    Statistics.label("accepted nodes")
        .coverage(
            c -> {
              c.check("all").count(n -> n > 0);
              c.check("some").count(n -> n > 0);
            });
  }

  /** The rule, stated label by label; {@code null} if {@code node} keeps it, else which part it breaks. */
  static @Nullable String brokenRule(Scenario s, NodeInfo node) {
    var pod = s.pod();
    var first = firstServiceSiblingNode(s);
    for (var label : s.labels()) {
      if (pod.nodeSelector().containsKey(label)) {
        if (!pod.nodeSelector().get(label).equals(node.labels().get(label))) {
          return "nodeSelector";
        }
      } else if (first != null && first.labels().containsKey(label)) {
        if (!first.labels().get(label).equals(node.labels().get(label))) {
          return "service";
        }
      }
    }
    return null;
  }

  /** The node of the first placed pod of the pod's namespace carrying all its labels, if a Service selects it. */
  static @Nullable NodeInfo firstServiceSiblingNode(Scenario s) {
    var pod = s.pod();
    boolean selected =
        s.services().stream()
            .anyMatch(
                w -> w.kind() == WorkloadSelector.Kind.SERVICE
                    && w.namespace().equals(pod.namespace())
                    && w.selector().matches(pod.labels()));
    if (!selected) {
      return null;
    }
    for (var node : s.nodes()) {
      for (var placed : node.pods()) {
        if (placed.namespace().equals(pod.namespace())
            && pod.labels().entrySet().stream()
                .allMatch(e -> Objects.equals(placed.labels().get(e.getKey()), e.getValue()))) {
          return node;
        }
      }
    }
    return null;
  }

  static WorkloadSelector service(String namespace, Map<String, String> selector) {
    return new WorkloadSelector(WorkloadSelector.Kind.SERVICE, namespace, "svc", LabelSelector.of(selector));
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    var placedPods =
        Combinators.combine(namespaces(), podLabels(), Arbitraries.integers().between(0, 3))
            .as(PlacedSpec::new)
            .list()
            .ofMinSize(1)
            .ofMaxSize(4);
    var services =
        Combinators.combine(
                Arbitraries.of(
                    WorkloadSelector.Kind.SERVICE, WorkloadSelector.Kind.SERVICE, WorkloadSelector.Kind.REPLICA_SET),
                namespaces(),
                Arbitraries.of(Map.of("app", "web"), Map.of("app", "db"), Map.<String, String>of()))
            .as((kind, ns, selector) -> new WorkloadSelector(kind, ns, "w", LabelSelector.of(selector)))
            .list()
            .ofMaxSize(3);
    var pod =
        Combinators.combine(
                namespaces(),
                podLabels(),
                // A selector that fixes every label leaves the Service nothing to decide: keep most pods without.
                Arbitraries.frequencyOf(
                    Tuple.of(3, Arbitraries.just(Map.<String, String>of())),
                    Tuple.of(2, nodeLabels())))
            .as((ns, labels, selector) -> PodInfo.builder(ns, "pod").labels(labels).nodeSelector(selector).build());
    return Combinators.combine(nodeLabels().list().ofSize(4), placedPods, services, pod, labelLists())
        .as(
            (nodeLabels, placed, ws, p, labels) -> {
              var nodes = new ArrayList<NodeInfo>();
              for (int n = 0; n < nodeLabels.size(); n++) {
                var node = NodeInfo.builder("node-" + n).labels(nodeLabels.get(n)).build();
                int i = 0;
                for (var spec : placed) {
                  if (spec.node() == n) {
                    var name = "placed-" + n + "-" + i++;
                    node = node.withPod(PodInfo.builder(spec.namespace(), name).labels(spec.labels()).build());
                  }
                }
                nodes.add(node);
              }
              return new Scenario(nodes, ws, p, labels);
            });
  }

  @Provide
  Arbitrary<List<NodeInfo>> nodeLists() {
    return nodeLabels().list().ofMinSize(1).ofMaxSize(5)
        .map(
            labels -> {
              var nodes = new ArrayList<NodeInfo>();
              for (int n = 0; n < labels.size(); n++) {
                nodes.add(NodeInfo.builder("node-" + n).labels(labels.get(n)).build());
              }
              return nodes;
            });
  }

  @Provide
  Arbitrary<List<String>> labelLists() {
    return Arbitraries.of(List.of("zone"), List.of("rack"), List.of("zone", "rack"));
  }

  @Provide
  Arbitrary<List<Integer>> choices() {
    return Arbitraries.integers().between(0, 10).list().ofMinSize(1).ofMaxSize(4);
  }

  static Arbitrary<String> namespaces() {
    return Arbitraries.of("ns", "ns", "other");
  }

  /** Mostly web pods, so that a pod, its Services and its siblings meet often. */
  static Arbitrary<Map<String, String>> podLabels() {
    return Arbitraries.of(
        Map.of("app", "web"), Map.of("app", "web"), Map.of("app", "web", "v", "2"), Map.of("app", "db"), Map.of());
  }

  /** Labels on keys zone and rack with two values each, either key possibly missing. */
  static Arbitrary<Map<String, String>> nodeLabels() {
    var value = Arbitraries.of("a", "b", "");
    return Combinators.combine(value, value)
        .as(
            (zone, rack) -> {
              var labels = new HashMap<String, String>();
              if (!zone.isEmpty()) {
                labels.put("zone", zone);
              }
              if (!rack.isEmpty()) {
                labels.put("rack", rack);
              }
              return Map.copyOf(labels);
            });
  }
}
