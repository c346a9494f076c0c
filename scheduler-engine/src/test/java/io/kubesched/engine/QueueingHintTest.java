package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement.Operator;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.api.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link QueueingHint}: the cases of kube-scheduler v1.37's {@code Test_isSchedulableAfterAssignedPodChange}
 * (interpodaffinity and podtopologyspread) for a bound pod added or relabelled, and of PodTopologySpread's
 * {@code Test_isSchedulableAfterNodeChange} for a node deleted, under kube's case names. Cases about
 * unscheduled or nominated pods and about deletions are left out: the controller calls the hint only for
 * bound pods, and a bound pod's deletion moves every waiting pod.
 */
class QueueingHintTest {

  private static final String NS = "default";

  private static final class Pod {
    final PodInfo.Builder builder;
    final List<PodAffinityTerm> affinity = new ArrayList<>();
    final List<PodAffinityTerm> antiAffinity = new ArrayList<>();
    final List<TopologySpreadConstraint> spread = new ArrayList<>();

    Pod(Map<String, String> labels) {
      builder = PodInfo.builder(NS, "p").uid("p").labels(labels);
    }

    Pod affinityIn(String key, String topologyKey, String... values) {
      affinity.add(PodAffinityTerm.of(LabelSelector.of(LabelSelectorRequirement.of(key, Operator.IN, values)), topologyKey));
      return this;
    }

    Pod affinityExists(String key, String topologyKey) {
      affinity.add(PodAffinityTerm.of(LabelSelector.of(LabelSelectorRequirement.of(key, Operator.EXISTS)), topologyKey));
      return this;
    }

    Pod antiAffinityIn(String key, String topologyKey, String... values) {
      antiAffinity.add(
          PodAffinityTerm.of(LabelSelector.of(LabelSelectorRequirement.of(key, Operator.IN, values)), topologyKey));
      return this;
    }

    Pod spreadExists(String topologyKey, String labelKey) {
      spread.add(
          TopologySpreadConstraint.of(
              1,
              topologyKey,
              WhenUnsatisfiable.DO_NOT_SCHEDULE,
              LabelSelector.of(LabelSelectorRequirement.of(labelKey, Operator.EXISTS))));
      return this;
    }

    QueueingHint hint() {
      return QueueingHint.of(
          builder
              .podAffinity(new PodAffinity(affinity, List.of()))
              .podAntiAffinity(new PodAffinity(antiAffinity, List.of()))
              .topologySpreadConstraints(spread)
              .build());
    }
  }

  private static Pod pod() {
    return new Pod(Map.of());
  }

  private static Pod pod(Map<String, String> labels) {
    return new Pod(labels);
  }

  private static Arguments added(String name, Pod pod, Map<String, String> newLabels, boolean queue) {
    return Arguments.of(name, pod, NS, null, newLabels, queue);
  }

  private static Arguments updated(
      String name, Pod pod, Map<String, String> oldLabels, Map<String, String> newLabels, boolean queue) {
    return Arguments.of(name, pod, NS, oldLabels, newLabels, queue);
  }

  static Stream<Arguments> interPodAffinity() {
    var securityscan = Map.of("service", "securityscan");
    return Stream.of(
        added("add a pod which matches the pod affinity",
            pod().affinityIn("service", "region", "securityscan", "value2"), securityscan, true),
        added("add a pod which doesn't match the pod affinity",
            pod().affinityIn("service", "region", "securityscan", "value2"), Map.of("aaa", "a"), false),
        updated("update a pod from non-match to match pod affinity",
            pod().affinityIn("service", "region", "securityscan", "value2"), Map.of("aaa", "a"), securityscan, true),
        updated("the updating pod matches target pod's affinity both before and after label changes",
            pod().affinityIn("service", "region", "securityscan", "value2"),
            Map.of("service", "value2"), securityscan, false),
        updated("update a pod from match to non-match the pod affinity",
            pod().affinityIn("service", "region", "securityscan", "value2"), securityscan, Map.of("aaa", "a"), false),
        updated("update a pod from match to non-match pod's affinity - multiple terms case",
            pod().affinityExists("aaa", "hostname").affinityExists("bbb", "hostname"),
            Map.of("aaa", "a"), securityscan, false),
        updated("update a pod from non-match to match pod's affinity - multiple terms case",
            pod().affinityExists("aaa", "hostname").affinityExists("bbb", "hostname"),
            Map.of("aaa", "a"), Map.of("aaa", "", "bbb", ""), true),
        updated("modify pod label to change it from satisfying pod anti-affinity to not satisfying anti-affinity",
            pod().antiAffinityIn("service", "region", "securityscan", "value2"),
            securityscan, Map.of("service", "aaaa"), true),
        updated("modify pod label to change it from not satisfying pod anti-affinity to satisfying anti-affinity",
            pod().antiAffinityIn("service", "region", "securityscan", "value2"),
            Map.of("service", "bbb"), securityscan, false),
        updated("modify pod label to change it from matching only one of target pod's anti-affinity terms to matching none",
            pod().antiAffinityIn("service", "region", "securityscan").antiAffinityIn("app", "region", "web"),
            Map.of("service", "securityscan", "app", "bar"), Map.of("service", "foo", "app", "bar"), true),
        updated("modify pod label but it still matches one of target pod's anti-affinity terms",
            pod().antiAffinityIn("service", "region", "securityscan").antiAffinityIn("app", "region", "web"),
            Map.of("service", "securityscan", "app", "bar"), Map.of("service", "foo", "app", "web"), false));
  }

  static Stream<Arguments> podTopologySpread() {
    var foo = Map.of("foo", "");
    return Stream.of(
        added("add pod with labels match topologySpreadConstraints selector",
            pod(foo).spreadExists("zone", "foo"), foo, true),
        Arguments.of("add pod with different namespace",
            pod(foo).spreadExists("zone", "foo"), "fake-namespace", null, foo, false),
        added("add pod with labels don't match topologySpreadConstraints selector",
            pod(foo).spreadExists("zone", "foo"), Map.of("bar", ""), false),
        updated("update pod's non-related label",
            pod(foo).spreadExists("zone", "foo"), Map.of("foo", "", "bar", "bar1"), Map.of("foo", "", "bar", "bar2"), false),
        updated("add pod's label that matches topologySpreadConstraints selector",
            pod(foo).spreadExists("zone", "foo"), Map.of(), foo, true),
        updated("delete pod label that matches topologySpreadConstraints selector",
            pod(foo).spreadExists("zone", "foo"), foo, Map.of(), true),
        updated("change pod's label that matches topologySpreadConstraints selector",
            pod(foo).spreadExists("zone", "foo"), Map.of("foo", "foo1"), Map.of("foo", "foo2"), false),
        updated("change pod's label that doesn't match topologySpreadConstraints selector",
            pod(foo).spreadExists("zone", "foo"), Map.of("foo", "", "bar", "bar1"), Map.of("foo", "", "bar", "bar2"), false),
        updated("add pod's label that matches topologySpreadConstraints selector with multi topologySpreadConstraints",
            pod(foo).spreadExists("zone", "foo").spreadExists("node", "bar"), foo, Map.of("foo", "", "bar", "bar2"), true),
        updated("change pod's label that doesn't match topologySpreadConstraints selector with multi topologySpreadConstraints",
            pod(foo).spreadExists("zone", "foo").spreadExists("node", "bar"), foo, Map.of("foo", "", "baz", ""), false),
        updated("change pod's label that match topologySpreadConstraints selector with multi topologySpreadConstraints",
            pod(foo).spreadExists("zone", "foo").spreadExists("node", "bar"),
            Map.of("foo", "", "bar", ""), Map.of("foo", "", "bar", "bar2"), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"interPodAffinity", "podTopologySpread"})
  void isSchedulableAfterAssignedPodChange(
      String name,
      Pod pod,
      String boundPodNamespace,
      @Nullable Map<String, String> oldLabels,
      Map<String, String> newLabels,
      boolean queue) {
    var hint = pod.hint();
    assertTrue(hint.waitsForAssignedPods(), "the pod is in the subset that events about bound pods look at");
    boolean actual =
        oldLabels == null
            ? hint.movedByAssignedPodAdded(boundPodNamespace, newLabels)
            : hint.movedByAssignedPodRelabelled(boundPodNamespace, oldLabels, newLabels);
    assertEquals(queue, actual);
  }

  static Stream<Arguments> nodeDeleted() {
    return Stream.of(
        Arguments.of("delete node with non-related labels", Map.of("foo", "bar"), false),
        Arguments.of("delete node with related labels", Map.of("zone", "zone1"), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeDeleted")
  void isSchedulableAfterNodeChange(String name, Map<String, String> nodeLabels, boolean queue) {
    var hint = pod().spreadExists("zone", "foo").hint();
    assertEquals(queue, hint.movedByNodeDeleted(nodeLabels));
  }

  @Test
  void a_node_deleted_helps_no_pod_without_spread_constraints() {
    var hint = pod().affinityIn("service", "zone", "web").hint();
    assertFalse(hint.movedByNodeDeleted(Map.of("zone", "a")));
  }

  @Test
  void a_pod_without_required_pod_affinity_or_hard_spreading_waits_for_no_bound_pod() {
    var soft =
        PodInfo.builder(NS, "p")
            .topologySpreadConstraints(
                List.of(TopologySpreadConstraint.of(1, "zone", WhenUnsatisfiable.SCHEDULE_ANYWAY, LabelSelector.EVERYTHING)))
            .build();

    assertSame(QueueingHint.ANY_CHANGE, QueueingHint.of(soft));
    assertFalse(QueueingHint.ANY_CHANGE.waitsForAssignedPods());
    assertTrue(QueueingHint.ANY_CHANGE.movedByClusterChange());
    assertFalse(QueueingHint.POD_UPDATE_ONLY.movedByClusterChange());
  }

  @Test
  void match_label_keys_narrow_the_selectors_with_the_waiting_pods_own_values() {
    var term =
        new PodAffinityTerm(LabelSelector.EVERYTHING, Set.of(), null, "zone", List.of("app"), List.of("tier"));
    var hint =
        QueueingHint.of(
            PodInfo.builder(NS, "p")
                .labels(Map.of("app", "web", "tier", "front"))
                .podAffinity(new PodAffinity(List.of(term), List.of()))
                .build());

    assertTrue(hint.movedByAssignedPodAdded(NS, Map.of("app", "web", "tier", "back")));
    assertFalse(hint.movedByAssignedPodAdded(NS, Map.of("app", "db")), "matchLabelKeys: app In (web)");
    assertFalse(hint.movedByAssignedPodAdded(NS, Map.of("app", "web", "tier", "front")), "mismatchLabelKeys");
  }

  @Test
  void a_term_looks_in_the_pods_own_namespace_unless_it_names_namespaces_or_selects_them() {
    var own = PodAffinityTerm.of(LabelSelector.EVERYTHING, "zone");
    var named = new PodAffinityTerm(LabelSelector.EVERYTHING, Set.of("other"), null, "zone", List.of(), List.of());
    var selected =
        new PodAffinityTerm(LabelSelector.EVERYTHING, Set.of(), LabelSelector.of(Map.of("team", "a")), "zone", List.of(), List.of());

    assertTrue(affinity(own).movedByAssignedPodAdded(NS, Map.of()));
    assertFalse(affinity(own).movedByAssignedPodAdded("other", Map.of()));
    assertTrue(affinity(named).movedByAssignedPodAdded("other", Map.of()));
    assertFalse(affinity(named).movedByAssignedPodAdded(NS, Map.of()));
    assertTrue(
        affinity(selected).movedByAssignedPodAdded("anywhere", Map.of()),
        "a namespace selector is taken as matching: the hint does not read namespace labels");
  }

  @Test
  void a_namespace_change_moves_the_pods_of_that_namespace_and_those_whose_terms_select_namespaces() {
    var selected =
        new PodAffinityTerm(LabelSelector.EVERYTHING, Set.of(), LabelSelector.EVERYTHING, "zone", List.of(), List.of());

    assertTrue(QueueingHint.ANY_CHANGE.movedByNamespaceChanged(NS, NS));
    assertFalse(QueueingHint.ANY_CHANGE.movedByNamespaceChanged(NS, "other"));
    assertTrue(affinity(selected).movedByNamespaceChanged(NS, "other"));
    assertFalse(QueueingHint.POD_UPDATE_ONLY.movedByNamespaceChanged(NS, NS));
  }

  private static QueueingHint affinity(PodAffinityTerm term) {
    return QueueingHint.of(PodInfo.builder(NS, "p").podAffinity(new PodAffinity(List.of(term), List.of())).build());
  }
}
