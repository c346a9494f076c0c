package io.kubesched.policy.plugins.nodeaffinity;

import static io.kubesched.api.NodeSelectorRequirement.Operator.DOES_NOT_EXIST;
import static io.kubesched.api.NodeSelectorRequirement.Operator.EXISTS;
import static io.kubesched.api.NodeSelectorRequirement.Operator.GT;
import static io.kubesched.api.NodeSelectorRequirement.Operator.IN;
import static io.kubesched.api.NodeSelectorRequirement.Operator.NOT_IN;
import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.FilterFixtures.nodeNameIn;
import static io.kubesched.policy.plugins.FilterFixtures.pod;
import static io.kubesched.policy.plugins.FilterFixtures.requirement;
import static io.kubesched.policy.plugins.FilterFixtures.term;
import static io.kubesched.policy.plugins.FilterFixtures.withRequiredTerms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.OnlyNodes;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The filter cases of kube-scheduler's {@code nodeaffinity/node_affinity_test.go} ({@code TestNodeAffinity}),
 * its PreFilter results (the node names {@code metadata.name} requirements narrow the search to, {@link
 * OnlyNodes}) and edge cases.
 */
class NodeAffinityFilterTest {

  private static final String ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
  private static final String ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity";
  private static final Outcome REJECTED = Outcome.unresolvable(ERR_REASON_POD);

  private static NodeSelectorTerm expressions(NodeSelectorRequirement... requirements) {
    return term(List.of(requirements), List.of());
  }

  private static NodeSelectorTerm fields(NodeSelectorRequirement... requirements) {
    return term(List.of(), List.of(requirements));
  }

  private static NodeInfo node(String name, Map<String, String> labels) {
    return FilterFixtures.node(name).labels(labels).build();
  }

  /** The term {@code GPU Exists, GPU NotIn (AMD, INTER)}. */
  private static NodeSelectorTerm gpuNotAmdOrInter() {
    return expressions(requirement("GPU", EXISTS), requirement("GPU", NOT_IN, "AMD", "INTER"));
  }

  /** The term {@code foo In (bar)} with the field requirement {@code metadata.name In (node1)}. */
  private static NodeSelectorTerm fooBarOnNode1() {
    return term(List.of(requirement("foo", IN, "bar")), List.of(nodeNameIn("node1")));
  }

  private static PodInfo selecting(Map<String, String> nodeSelector) {
    return pod().nodeSelector(nodeSelector).build();
  }

  static Stream<Arguments> kubeCases() {
    var none = List.<NodeSelectorTerm>of();
    var addedNode2 = List.of(fields(nodeNameIn("node2")));
    return Stream.of(
        argumentSet("missing labels", selecting(Map.of("foo", "bar")), node("", Map.of()), none, REJECTED),
        argumentSet(
            "same labels", selecting(Map.of("foo", "bar")), node("", Map.of("foo", "bar")), none, Outcome.FIT),
        argumentSet(
            "node labels are superset",
            selecting(Map.of("foo", "bar")),
            node("", Map.of("foo", "bar", "baz", "blah")),
            none,
            Outcome.FIT),
        argumentSet(
            "node labels are subset",
            selecting(Map.of("foo", "bar", "baz", "blah")),
            node("", Map.of("foo", "bar")),
            none,
            REJECTED),
        argumentSet(
            "Pod with matchExpressions using In operator that matches the existing node",
            withRequiredTerms(expressions(requirement("foo", IN, "bar", "value2"))).build(),
            node("", Map.of("foo", "bar")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with matchExpressions using Gt operator that matches the existing node",
            withRequiredTerms(expressions(requirement("kernel-version", GT, "0204"))).build(),
            node("", Map.of("kernel-version", "0206")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with matchExpressions using NotIn operator that matches the existing node",
            withRequiredTerms(expressions(requirement("mem-type", NOT_IN, "DDR", "DDR2"))).build(),
            node("", Map.of("mem-type", "DDR3")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with matchExpressions using Exists operator that matches the existing node",
            withRequiredTerms(expressions(requirement("GPU", EXISTS))).build(),
            node("", Map.of("GPU", "NVIDIA-GRID-K1")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with affinity that don't match node's labels won't schedule onto the node",
            withRequiredTerms(expressions(requirement("foo", IN, "value1", "value2"))).build(),
            node("", Map.of("foo", "bar")),
            none,
            REJECTED),
        argumentSet(
            "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule "
                + "onto the node",
            withRequiredTerms(expressions()).build(),
            node("", Map.of("foo", "bar")),
            none,
            REJECTED),
        argumentSet(
            "Pod with no Affinity will schedule onto a node",
            pod().build(),
            node("", Map.of("foo", "bar")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with Affinity but nil NodeSelector will schedule onto a node",
            withRequiredTerms().build(),
            node("", Map.of("foo", "bar")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with multiple matchExpressions ANDed that matches the existing node",
            withRequiredTerms(gpuNotAmdOrInter()).build(),
            node("", Map.of("GPU", "NVIDIA-GRID-K1")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with multiple matchExpressions ANDed that doesn't match the existing node",
            withRequiredTerms(
                    expressions(requirement("GPU", EXISTS), requirement("GPU", IN, "AMD", "INTER")))
                .build(),
            node("", Map.of("GPU", "NVIDIA-GRID-K1")),
            none,
            REJECTED),
        argumentSet(
            "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will "
                + "schedule onto the node",
            withRequiredTerms(
                    expressions(requirement("foo", IN, "bar", "value2")),
                    expressions(requirement("diffkey", IN, "wrong", "value2")))
                .build(),
            node("", Map.of("foo", "bar")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are "
                + "satisfied, will schedule onto the node",
            withRequiredTerms(expressions(requirement("foo", EXISTS)))
                .nodeSelector(Map.of("foo", "bar"))
                .build(),
            node("", Map.of("foo", "bar")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we "
                + "are deprecating) is not satisfied, won't schedule onto the node",
            withRequiredTerms(expressions(requirement("foo", EXISTS)))
                .nodeSelector(Map.of("foo", "bar"))
                .build(),
            node("", Map.of("foo", "barrrrrr")),
            none,
            REJECTED),
        argumentSet(
            "Pod with an invalid value in Affinity term won't be scheduled onto the node",
            withRequiredTerms(expressions(requirement("foo", NOT_IN, "invalid value: ___@#$%^"))).build(),
            node("", Map.of("foo", "bar")),
            none,
            REJECTED),
        argumentSet(
            "a term whose key is not a qualified name matches no node",
            withRequiredTerms(expressions(requirement("a/b/c", EXISTS))).build(),
            node("", Map.of("a/b/c", "x")),
            none,
            REJECTED),
        argumentSet(
            "a Gt bound that is not a label value (a sign) makes the term match no node",
            withRequiredTerms(expressions(requirement("cores", GT, "-1"))).build(),
            node("", Map.of("cores", "8")),
            none,
            REJECTED),
        argumentSet(
            "a prefixed key with a DNS subdomain matches",
            withRequiredTerms(expressions(requirement("topology.kubernetes.io/zone", IN, "a"))).build(),
            node("", Map.of("topology.kubernetes.io/zone", "a")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with matchFields using In operator that matches the existing node",
            withRequiredTerms(fields(nodeNameIn("node1"))).build(),
            node("node1", Map.of()),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with matchFields using In operator that does not match the existing node",
            withRequiredTerms(fields(nodeNameIn("node1"))).build(),
            node("node2", Map.of()),
            none,
            REJECTED),
        argumentSet(
            "Pod with two terms: matchFields does not match, but matchExpressions matches",
            withRequiredTerms(
                    fields(nodeNameIn("node1"), nodeNameIn("node2")),
                    expressions(requirement("foo", IN, "bar")))
                .build(),
            node("node2", Map.of("foo", "bar")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with one term: matchFields does not match, but matchExpressions matches",
            withRequiredTerms(fooBarOnNode1()).build(),
            node("node2", Map.of("foo", "bar")),
            none,
            REJECTED),
        argumentSet(
            "Pod with one term: both matchFields and matchExpressions match",
            withRequiredTerms(fooBarOnNode1()).build(),
            node("node1", Map.of("foo", "bar")),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with two terms: both matchFields and matchExpressions do not match",
            withRequiredTerms(
                    fields(nodeNameIn("node1")), expressions(requirement("foo", IN, "not-match-to-bar")))
                .build(),
            node("node2", Map.of("foo", "bar")),
            none,
            REJECTED),
        argumentSet(
            "Pod with two terms of node.Name affinity",
            withRequiredTerms(fields(nodeNameIn("node1")), fields(nodeNameIn("node2"))).build(),
            node("node2", Map.of()),
            none,
            Outcome.FIT),
        argumentSet(
            "Pod with two conflicting mach field requirements",
            withRequiredTerms(fields(nodeNameIn("node1"), nodeNameIn("node2"))).build(),
            node("node2", Map.of("foo", "bar")),
            none,
            REJECTED),
        argumentSet(
            "Matches added affinity and Pod's node affinity",
            withRequiredTerms(expressions(requirement("zone", IN, "foo"))).build(),
            node("node2", Map.of("zone", "foo")),
            addedNode2,
            Outcome.FIT),
        argumentSet(
            "Matches added affinity but not Pod's node affinity",
            withRequiredTerms(expressions(requirement("zone", IN, "bar"))).build(),
            node("node2", Map.of("zone", "foo")),
            addedNode2,
            REJECTED),
        argumentSet(
            "Doesn't match added affinity",
            pod().build(),
            node("node2", Map.of("zone", "foo")),
            List.of(expressions(requirement("zone", IN, "bar"))),
            Outcome.unresolvable(ERR_REASON_ENFORCED)),
        argumentSet(
            "Matches node selector correctly even if PreFilter is not called",
            selecting(Map.of("foo", "bar")),
            node("", Map.of("foo", "bar", "baz", "blah")),
            none,
            Outcome.FIT),
        argumentSet(
            "Matches node affinity correctly even if PreFilter is not called",
            withRequiredTerms(gpuNotAmdOrInter()).build(),
            node("", Map.of("GPU", "NVIDIA-GRID-K1")),
            none,
            Outcome.FIT));
  }

  @ParameterizedTest
  @MethodSource("kubeCases")
  void kube_scheduler_case(
      PodInfo pod, NodeInfo node, List<NodeSelectorTerm> addedAffinity, Outcome expected) {
    assertOutcome(expected, new NodeAffinityFilter(addedAffinity).filter(pod, node));
  }

  /**
   * The cases of kube's {@code TestNodeAffinity} that state a PreFilter result or status: "skip", "all nodes"
   * (no narrowing), the node names, or "conflict" (turned away).
   */
  static Stream<Arguments> kubePreFilterCases() {
    return Stream.of(
        argumentSet("Pod with no Affinity will schedule onto a node", pod().build(), "skip"),
        argumentSet(
            "Pod with Affinity but nil NodeSelector will schedule onto a node", withRequiredTerms().build(), "skip"),
        argumentSet(
            "Pod with matchFields using In operator that matches the existing node",
            withRequiredTerms(fields(nodeNameIn("node1"))).build(),
            "node1"),
        argumentSet(
            "Pod with two terms: matchFields does not match, but matchExpressions matches",
            withRequiredTerms(
                    fields(nodeNameIn("node1"), nodeNameIn("node2")), expressions(requirement("foo", IN, "bar")))
                .build(),
            "all nodes"),
        argumentSet(
            "Pod with one term: matchFields does not match, but matchExpressions matches",
            withRequiredTerms(fooBarOnNode1()).build(),
            "node1"),
        argumentSet(
            "Pod with two terms: both matchFields and matchExpressions do not match",
            withRequiredTerms(
                    fields(nodeNameIn("node1")), expressions(requirement("foo", IN, "not-match-to-bar")))
                .build(),
            "all nodes"),
        argumentSet(
            "Pod with two terms of node.Name affinity",
            withRequiredTerms(fields(nodeNameIn("node1")), fields(nodeNameIn("node2"))).build(),
            "node1 node2"),
        argumentSet(
            "Pod with two conflicting mach field requirements",
            withRequiredTerms(fields(nodeNameIn("node1"), nodeNameIn("node2"))).build(),
            "conflict"),
        argumentSet(
            "a NotIn field requirement names no node",
            withRequiredTerms(fields(requirement(NodeSelectorTerm.NODE_NAME_FIELD, NOT_IN, "node1"))).build(),
            "all nodes"),
        argumentSet(
            "a node selector alone names no node", selecting(Map.of("foo", "bar")), "all nodes"));
  }

  @ParameterizedTest
  @MethodSource("kubePreFilterCases")
  void kube_scheduler_pre_filter_case(PodInfo pod, String expected) {
    var prepared = new NodeAffinityFilter().prepare(pod, ClusterSnapshot.of(List.of()));

    String actual;
    if (prepared instanceof PreFilter.Skipped) {
      actual = "skip";
    } else if (prepared instanceof PreFilter.PodRejected rejected) {
      assertEquals(NodeAffinityFilter.TERMS_CONFLICT, rejected.message());
      assertEquals(FilterResult.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, rejected.rejection().code());
      actual = "conflict";
    } else if (prepared instanceof OnlyNodes only) {
      actual = String.join(" ", new TreeSet<>(only.nodeNames()));
    } else {
      actual = "all nodes";
    }
    assertEquals(expected, actual);
  }

  @Test
  void the_added_affinity_is_checked_before_the_pods_own() {
    var filter = new NodeAffinityFilter(List.of(expressions(requirement("zone", IN, "a"))));

    assertOutcome(
        Outcome.unresolvable(ERR_REASON_ENFORCED),
        filter.filter(selecting(Map.of("missing", "x")), node("n", Map.of("zone", "b"))));
  }

  @Test
  void a_node_selector_value_must_match_exactly() {
    var node = node("n", Map.of("foo", "bar"));

    assertOutcome(REJECTED, new NodeAffinityFilter().filter(selecting(Map.of("foo", "")), node));
  }

  @Test
  void does_not_exist_matches_a_node_without_the_label() {
    var pod = withRequiredTerms(expressions(requirement("gpu", DOES_NOT_EXIST))).build();

    assertOutcome(Outcome.FIT, new NodeAffinityFilter().filter(pod, node("n", Map.of("cpu", "x"))));
    assertOutcome(REJECTED, new NodeAffinityFilter().filter(pod, node("n", Map.of("gpu", "x"))));
  }

  @Test
  void the_name_is_kube_schedulers_plugin_name() {
    assertEquals("NodeAffinity", new NodeAffinityFilter().name());
  }
}
