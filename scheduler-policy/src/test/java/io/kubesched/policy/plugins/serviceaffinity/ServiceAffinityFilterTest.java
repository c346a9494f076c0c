package io.kubesched.policy.plugins.serviceaffinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.plugins.nodelabel.NodeLabelPresenceFilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's {@code TestServiceAffinity} and {@code TestPreFilterDisabled} of the former {@code
 * ServiceAffinity} plugin (v1.20, {@code pkg/scheduler/framework/plugins/serviceaffinity}), under kube's case
 * names. Kube's {@code TestPreFilterStateAddRemovePod} and {@code TestPreFilterStateClone} test the mutable
 * cycle state that preemption edits; the prepared filter here is immutable and preemption is not modelled.
 */
class ServiceAffinityFilterTest {

  static final Map<String, String> SELECTOR = Map.of("foo", "bar");
  static final NodeInfo MACHINE1 = node("machine1", Map.of("region", "r1", "zone", "z11"));
  static final NodeInfo MACHINE2 = node("machine2", Map.of("region", "r1", "zone", "z12"));
  static final NodeInfo MACHINE3 = node("machine3", Map.of("region", "r2", "zone", "z21"));
  static final NodeInfo MACHINE4 = node("machine4", Map.of("region", "r2", "zone", "z22"));
  static final NodeInfo MACHINE5 = node("machine5", Map.of("region", "r2", "zone", "z22"));

  static NodeInfo node(String name, Map<String, String> labels) {
    return NodeInfo.builder(name).labels(labels).build();
  }

  static PodInfo pod(String namespace, Map<String, String> labels, Map<String, String> nodeSelector) {
    return PodInfo.builder(namespace, "pod").labels(labels).nodeSelector(nodeSelector).build();
  }

  static WorkloadSelector service(String namespace, Map<String, String> selector) {
    return new WorkloadSelector(WorkloadSelector.Kind.SERVICE, namespace, "svc", LabelSelector.of(selector));
  }

  /** A placed pod: the node it runs on and the pod. */
  record Placed(String node, PodInfo pod) {}

  static Placed placed(String node, String namespace, Map<String, String> labels) {
    return new Placed(node, PodInfo.builder(namespace, "existing-on-" + node).labels(labels).nodeName(node).build());
  }

  /** kube's snapshot of the five machines with the placed pods, and the services. */
  static ClusterSnapshot cluster(List<Placed> pods, List<WorkloadSelector> services) {
    var nodes = new ArrayList<NodeInfo>();
    for (var node : List.of(MACHINE1, MACHINE2, MACHINE3, MACHINE4, MACHINE5)) {
      var withPods = node;
      for (var p : pods) {
        if (p.node().equals(node.name())) {
          withPods = withPods.withPod(p.pod());
        }
      }
      nodes.add(withPods);
    }
    return ClusterSnapshot.of(nodes, Map.of(), services);
  }

  record Case(
      String name,
      PodInfo pod,
      List<Placed> pods,
      List<WorkloadSelector> services,
      NodeInfo node,
      List<String> labels,
      Code code) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> testServiceAffinity() {
    var none = Map.<String, String>of();
    var region = List.of("region");
    return Stream.of(
        new Case("nothing scheduled", pod("", none, none), List.of(), List.of(), MACHINE1, region, Code.SUCCESS),
        new Case(
            "pod with region label match",
            pod("", none, Map.of("region", "r1")), List.of(), List.of(), MACHINE1, region, Code.SUCCESS),
        new Case(
            "pod with region label mismatch",
            pod("", none, Map.of("region", "r2")), List.of(), List.of(), MACHINE1, region, Code.UNSCHEDULABLE),
        new Case(
            "service pod on same node",
            pod("", SELECTOR, none),
            List.of(placed("machine1", "", SELECTOR)),
            List.of(service("", SELECTOR)),
            MACHINE1, region, Code.SUCCESS),
        new Case(
            "service pod on different node, region match",
            pod("", SELECTOR, none),
            List.of(placed("machine2", "", SELECTOR)),
            List.of(service("", SELECTOR)),
            MACHINE1, region, Code.SUCCESS),
        new Case(
            "service pod on different node, region mismatch",
            pod("", SELECTOR, none),
            List.of(placed("machine3", "", SELECTOR)),
            List.of(service("", SELECTOR)),
            MACHINE1, region, Code.UNSCHEDULABLE),
        new Case(
            "service in different namespace, region mismatch",
            pod("ns1", SELECTOR, none),
            List.of(placed("machine3", "ns1", SELECTOR)),
            List.of(service("ns2", SELECTOR)),
            MACHINE1, region, Code.SUCCESS),
        new Case(
            "pod in different namespace, region mismatch",
            pod("ns1", SELECTOR, none),
            List.of(placed("machine3", "ns2", SELECTOR)),
            List.of(service("ns1", SELECTOR)),
            MACHINE1, region, Code.SUCCESS),
        new Case(
            "service and pod in same namespace, region mismatch",
            pod("ns1", SELECTOR, none),
            List.of(placed("machine3", "ns1", SELECTOR)),
            List.of(service("ns1", SELECTOR)),
            MACHINE1, region, Code.UNSCHEDULABLE),
        new Case(
            "service pod on different node, multiple labels, not all match",
            pod("", SELECTOR, none),
            List.of(placed("machine2", "", SELECTOR)),
            List.of(service("", SELECTOR)),
            MACHINE1, List.of("region", "zone"), Code.UNSCHEDULABLE),
        new Case(
            "service pod on different node, multiple labels, all match",
            pod("", SELECTOR, none),
            List.of(placed("machine5", "", SELECTOR)),
            List.of(service("", SELECTOR)),
            MACHINE4, List.of("region", "zone"), Code.SUCCESS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testServiceAffinity(Case c) {
    var cluster = cluster(c.pods(), c.services());
    var node = cluster.node(c.node().name()).orElseThrow();

    var result = new ServiceAffinityFilter(c.labels()).prepare(c.pod(), cluster).filter(c.pod(), node);

    assertEquals(c.code(), result.code());
    if (result instanceof FilterResult.Rejected rejected) {
      assertEquals("node(s) didn't match service affinity", rejected.reasons().get(0).message());
    }
  }

  @Test
  void testPreFilterDisabled() {
    var pod = PodInfo.builder("", "pod").build();

    var result = new ServiceAffinityFilter(List.of("region")).filter(pod, NodeInfo.builder("n").build());

    assertEquals(Code.ERROR, result.code());
    assertEquals("ServiceAffinity needs prepare(pod, cluster) before filtering pod /pod",
        ((FilterResult.Failed) result).message());
  }

  @Test
  void the_rejection_names_the_label_values_the_node_had_to_carry() {
    var cluster = cluster(List.of(placed("machine3", "", SELECTOR)), List.of(service("", SELECTOR)));
    var pod = pod("", SELECTOR, Map.of("zone", "z21"));

    var result = new ServiceAffinityFilter(List.of("region", "zone")).prepare(pod, cluster).filter(pod, MACHINE1);

    var rejected = assertInstanceOf(FilterResult.Rejected.class, result);
    assertEquals(
        List.of(new ServiceAffinityFilter.Violated(Map.of("region", "r2", "zone", "z21"))), rejected.reasons());
  }

  @Test
  void the_node_selector_wins_over_the_first_service_pods_node_and_open_labels_come_from_that_node() {
    // The first service pod runs on machine3 (r2, z21); the pod fixes zone z22 itself.
    var cluster = cluster(List.of(placed("machine3", "", SELECTOR)), List.of(service("", SELECTOR)));
    var pod = pod("", SELECTOR, Map.of("zone", "z22"));
    var filter = new ServiceAffinityFilter(List.of("region", "zone"));

    var required = filter.requiredLabels(pod, cluster);

    assertEquals(new LinkedHashMap<>(Map.of("region", "r2", "zone", "z22")), new LinkedHashMap<>(required));
    var prepared = filter.prepare(pod, cluster);
    assertEquals(Code.SUCCESS, prepared.filter(pod, MACHINE4).code());
    assertEquals(Code.UNSCHEDULABLE, prepared.filter(pod, MACHINE3).code());
  }

  @Test
  void the_first_pod_in_node_order_decides_and_a_label_its_node_lacks_stays_open() {
    var unlabelled = NodeInfo.builder("bare").build();
    var sibling = PodInfo.builder("ns", "sibling").labels(SELECTOR).nodeName("bare").build();
    var later = PodInfo.builder("ns", "later").labels(SELECTOR).nodeName("machine3").build();
    var cluster =
        ClusterSnapshot.of(
            List.of(unlabelled.withPod(sibling), MACHINE1, MACHINE3.withPod(later)),
            Map.of(),
            List.of(service("ns", SELECTOR)));
    var pod = pod("ns", SELECTOR, Map.of());

    assertEquals(Map.of(), new ServiceAffinityFilter(List.of("region")).requiredLabels(pod, cluster));
  }

  @Test
  void siblings_are_the_pods_whose_labels_include_the_pods_not_those_the_service_selects() {
    // As kube: the Service only gates the rule; the siblings are found by the pod's own labels.
    var bigger = Map.of("foo", "bar", "tier", "web");
    var cluster =
        cluster(
            List.of(placed("machine1", "", Map.of("foo", "bar")), placed("machine3", "", bigger)),
            List.of(service("", SELECTOR)));

    var filter = new ServiceAffinityFilter(List.of("region"));

    assertEquals(Map.of("region", "r2"), filter.requiredLabels(pod("", bigger, Map.of()), cluster));
    assertEquals(Map.of("region", "r1"), filter.requiredLabels(pod("", SELECTOR, Map.of()), cluster));
  }

  @Test
  void in_a_policy_the_service_pins_the_pod_to_its_region_and_the_policy_reads_services() {
    var cluster = cluster(List.of(placed("machine3", "", SELECTOR)), List.of(service("", SELECTOR)));
    var policy = Policy.builder().filter(new ServiceAffinityFilter(List.of("region"))).seed(1).build();
    var pod = pod("", SELECTOR, Map.of());

    var explanation = policy.explain(pod, cluster);

    // Without scorers the first feasible node is taken: machine1 and machine2 (region r1) are passed over.
    assertEquals(Decision.bind("machine3"), explanation.decision());
    var outcome = explanation.node("machine1").orElseThrow().filters().get(0);
    assertEquals(ServiceAffinityFilter.NAME, outcome.filter());
    assertEquals(Code.UNSCHEDULABLE, outcome.result().code());
    assertEquals(Set.of(ClusterData.SERVICES), policy.reads());

    var strict =
        Policy.builder()
            .filter(new ServiceAffinityFilter(List.of("region")))
            .filter(new NodeLabelPresenceFilter(List.of("absent"), true))
            .build();
    var affinity = List.of("node(s) didn't match service affinity");
    var label = List.of("node(s) didn't have the requested labels");
    var decided = (Decision.Unschedulable) strict.find(pod, cluster);
    assertEquals(
        Decision.unschedulable(
                Map.of("machine1", affinity, "machine2", affinity, "machine3", label, "machine4", label,
                    "machine5", label))
            .withUnresolvableNodes(Set.of("machine3", "machine4", "machine5"))
            .withRejectors(Set.of(ServiceAffinityFilter.NAME, NodeLabelPresenceFilter.NAME),
                // ServiceAffinity registers every change; NodeLabel nodes added and labels
                io.kubesched.api.ClusterChange.ALL, decided.retryHint()),
        decided);
    // both rejectors are asked, in the policy's order
    assertEquals("FilterHints[ServiceAffinity, NodeLabel]", decided.retryHint().toString());
  }

  @Test
  void labels_must_be_named() {
    assertThrows(IllegalArgumentException.class, () -> new ServiceAffinityFilter(List.of()));
    assertThrows(IllegalArgumentException.class, () -> new ServiceAffinityFilter(List.of("zone", "")));
  }
}
