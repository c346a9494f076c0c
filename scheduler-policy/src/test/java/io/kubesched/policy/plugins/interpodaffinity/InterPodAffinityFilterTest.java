package io.kubesched.policy.plugins.interpodaffinity;

import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.HOSTNAME;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.TEAM_NAMESPACES;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.cluster;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.doesNotExist;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.exists;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.in;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.node;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.notIn;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.pod;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.selector;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.Node;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube-scheduler's {@code interpodaffinity/filtering_test.go}, under kube's names, run through
 * {@link InterPodAffinityFilter#prepare} and the prepared filter, with the feature gate {@code
 * InterPodAffinityHostnameFastPath} at its 1.37 default (off); kube's tests run every case with the gate on
 * as well and expect the same verdicts. A kube PreFilter {@code Skip} is a prepared filter that is {@link
 * InterPodAffinityFilter.Prepared#skipped() skipped} and fits every node.
 */
class InterPodAffinityFilterTest {

  static final Outcome AFFINITY = Outcome.unresolvable("node(s) didn't match pod affinity rules");
  static final Outcome ANTI_AFFINITY = Outcome.unschedulable("node(s) didn't match pod anti-affinity rules");
  static final Outcome EXISTING_ANTI_AFFINITY =
      Outcome.unschedulable("node(s) didn't satisfy existing pods anti-affinity rules");
  static final Outcome FIT = Outcome.FIT;

  private final InterPodAffinityFilter filter = new InterPodAffinityFilter();

  /** The expected result of kube's PreFilter: Skip, or success with a state the Filter calls read. */
  enum PreFilter {
    SKIP,
    SUCCESS
  }

  private void check(
      ClusterSnapshot cluster, PodInfo pod, PreFilter preFilter, List<Outcome> expected) {
    var prepared = assertInstanceOf(InterPodAffinityFilter.Prepared.class, filter.prepare(pod, cluster));
    assertEquals(preFilter == PreFilter.SKIP, prepared.skipped(), "PreFilter skipped");
    var actual = new ArrayList<Outcome>();
    for (var node : cluster.nodes()) {
      actual.add(Outcome.of(prepared.filter(pod, node)));
    }
    assertEquals(expected, actual);
  }

  // ---------------------------------------------------------------- TestRequiredAffinitySingleNode

  private static final Map<String, String> POD_LABEL = Map.of("service", "securityscan");
  private static final Map<String, String> POD_LABEL_2 = Map.of("security", "S1");
  private static final List<Node> NODE1 = List.of(node("node1", Map.of("region", "r1", "zone", "z11")));

  private static Pod existing() {
    return pod().labels(POD_LABEL).node("node1");
  }

  private static Arguments single(String name, Pod pod, List<Pod> pods, PreFilter preFilter, Outcome expected) {
    return argumentSet(name, pod, pods, preFilter, expected);
  }

  private static Arguments single(String name, Pod pod, List<Pod> pods, Outcome expected) {
    return single(name, pod, pods, PreFilter.SUCCESS, expected);
  }

  static Stream<Arguments> requiredAffinitySingleNode() {
    var teamSelector = selector(in("team", "team1"));
    var securityscan = selector(in("service", "securityscan", "value2"));
    return Stream.of(
        single(
            "A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing"
                + " pods",
            pod(), List.of(), PreFilter.SKIP, FIT),
        single(
            "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that"
                + " matches the existing pod",
            pod().labels(POD_LABEL_2).affinityIn("service", "region", "securityscan", "value2"),
            List.of(existing()), FIT),
        single(
            "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in"
                + " operator in labelSelector that matches the existing pod",
            pod().labels(POD_LABEL_2).affinityNotIn("service", "region", "securityscan3", "value3"),
            List.of(existing()), FIT),
        single(
            "Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
            pod().labels(POD_LABEL_2).affinity(term(securityscan, "", Set.of("DiffNameSpace"), null)),
            List.of(pod().namespace("ns").label("service", "securityscan").node("node1")), AFFINITY),
        single(
            "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
            pod().labels(POD_LABEL).affinityIn("service", "", "antivirusscan", "value2"),
            List.of(existing()), AFFINITY),
        single(
            "satisfies the PodAffinity with different label Operators in multiple"
                + " RequiredDuringSchedulingIgnoredDuringExecution ",
            pod().labels(POD_LABEL_2).affinity(
                term(selector(exists("service"), doesNotExist("wrongkey")), "region"),
                term(selector(in("service", "securityscan"), notIn("service", "WrongValue")), "region")),
            List.of(existing()), FIT),
        single(
            "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto"
                + " the node because one of the matchExpression item don't match.",
            pod().labels(POD_LABEL_2).affinity(
                term(selector(exists("service"), doesNotExist("wrongkey")), "region"),
                term(selector(in("service", "securityscan2"), notIn("service", "WrongValue")), "region")),
            List.of(existing()), AFFINITY),
        single(
            "satisfies the PodAffinity and PodAntiAffinity with the existing pod",
            pod().labels(POD_LABEL_2)
                .affinityIn("service", "region", "securityscan", "value2")
                .antiAffinityIn("service", "node", "antivirusscan", "value2"),
            List.of(existing()), FIT),
        single(
            "satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
            pod().labels(POD_LABEL_2)
                .affinityIn("service", "region", "securityscan", "value2")
                .antiAffinityIn("service", "node", "antivirusscan", "value2"),
            List.of(existing().antiAffinityIn("service", "node", "antivirusscan", "value2")), FIT),
        single(
            "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
            pod().labels(POD_LABEL_2)
                .affinityIn("service", "region", "securityscan", "value2")
                .antiAffinityIn("service", "zone", "securityscan", "value2"),
            List.of(existing()), ANTI_AFFINITY),
        single(
            "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the"
                + " existing pod",
            pod().labels(POD_LABEL)
                .affinityIn("service", "region", "securityscan", "value2")
                .antiAffinityIn("service", "node", "antivirusscan", "value2"),
            List.of(existing().antiAffinityIn("service", "zone", "securityscan", "value2")),
            EXISTING_ANTI_AFFINITY),
        single(
            "pod matches its own Label in PodAffinity and that matches the existing pod Labels",
            pod().labels(POD_LABEL).affinityNotIn("service", "region", "securityscan", "value2"),
            List.of(pod().label("service", "securityscan").node("node2")), AFFINITY),
        single(
            "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints."
                + " doesn't satisfy PodAntiAffinity symmetry with the existing pod",
            pod().labels(POD_LABEL),
            List.of(existing().antiAffinityIn("service", "zone", "securityscan", "value2")),
            EXISTING_ANTI_AFFINITY),
        single(
            "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints."
                + " satisfy PodAntiAffinity symmetry with the existing pod",
            pod().labels(POD_LABEL),
            List.of(existing().antiAffinityNotIn("service", "zone", "securityscan", "value2")),
            PreFilter.SKIP, FIT),
        single(
            "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with"
                + " incoming pod",
            pod().labels(POD_LABEL).antiAffinityExists("service", "region").antiAffinityExists("security", "region"),
            List.of(pod().node("node1").labels(POD_LABEL_2).antiAffinityExists("security", "zone")),
            ANTI_AFFINITY),
        single(
            "PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on"
                + " AffinityTerms",
            pod().labels(POD_LABEL).antiAffinityExists("service", "zone").antiAffinityExists("security", "zone"),
            List.of(pod().node("node1").labels(POD_LABEL_2).antiAffinityExists("security", "zone")),
            ANTI_AFFINITY),
        single(
            "PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on"
                + " AffinityTerms",
            pod().labels(POD_LABEL_2).antiAffinityExists("security", "zone"),
            List.of(pod().node("node1").labels(POD_LABEL)
                .antiAffinityExists("service", "zone").antiAffinityExists("security", "zone")),
            EXISTING_ANTI_AFFINITY),
        single(
            "PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on"
                + " AffinityTerms",
            pod().labels(Map.of("abc", "", "xyz", ""))
                .antiAffinityExists("abc", "zone").antiAffinityExists("def", "zone"),
            List.of(pod().node("node1").labels(Map.of("def", "", "xyz", ""))
                .antiAffinityExists("abc", "zone").antiAffinityExists("def", "zone")),
            ANTI_AFFINITY),
        single(
            "PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on"
                + " AffinityTerms",
            pod().labels(Map.of("def", "", "xyz", ""))
                .antiAffinityExists("abc", "zone").antiAffinityExists("def", "zone"),
            List.of(pod().node("node1").labels(Map.of("abc", "", "xyz", ""))
                .antiAffinityExists("abc", "zone").antiAffinityExists("def", "zone")),
            ANTI_AFFINITY),
        single(
            "affinity with NamespaceSelector",
            pod().labels(POD_LABEL_2).affinity(term(securityscan, "region", Set.of(), teamSelector)),
            List.of(pod().namespace("subteam1.team1").labels(POD_LABEL).node("node1")), FIT),
        single(
            "affinity with non-matching NamespaceSelector",
            pod().labels(POD_LABEL_2).affinity(term(securityscan, "region", Set.of(), teamSelector)),
            List.of(pod().namespace("subteam1.team2").labels(POD_LABEL).node("node1")), AFFINITY),
        single(
            "anti-affinity with matching NamespaceSelector",
            pod().namespace("subteam1.team1").labels(POD_LABEL_2)
                .antiAffinity(term(securityscan, "zone", Set.of(), teamSelector)),
            List.of(pod().namespace("subteam2.team1").labels(POD_LABEL).node("node1")), ANTI_AFFINITY),
        single(
            "anti-affinity with matching all NamespaceSelector",
            pod().namespace("subteam1.team1").labels(POD_LABEL_2)
                .antiAffinity(term(securityscan, "zone", Set.of(), LabelSelector.EVERYTHING)),
            List.of(pod().namespace("subteam2.team1").labels(POD_LABEL).node("node1")), ANTI_AFFINITY),
        single(
            "anti-affinity with non-matching NamespaceSelector",
            pod().namespace("subteam1.team1").labels(POD_LABEL_2)
                .antiAffinity(term(securityscan, "zone", Set.of(), teamSelector)),
            List.of(pod().namespace("subteam1.team2").labels(POD_LABEL).node("node1")), FIT));
  }

  @ParameterizedTest
  @MethodSource
  void requiredAffinitySingleNode(Pod pod, List<Pod> pods, PreFilter preFilter, Outcome expected) {
    check(cluster(NODE1, pods, TEAM_NAMESPACES), pod.build(), preFilter, List.of(expected));
  }

  // ---------------------------------------------------------------- TestRequiredAffinityMultipleNodes

  private static final Map<String, String> RG_CHINA = Map.of("region", "China");
  private static final Map<String, String> RG_CHINA_AZ_AZ1 = Map.of("region", "China", "az", "az1");
  private static final Map<String, String> RG_INDIA = Map.of("region", "India");

  private static Node full(String name, String region, String zone) {
    return node(name, Map.of("region", region, "zone", zone, "hostname", name));
  }

  private static List<Node> chinaChinaIndia(String a, String b, String c) {
    return List.of(node(a, RG_CHINA), node(b, RG_CHINA_AZ_AZ1), node(c, RG_INDIA));
  }

  private static Arguments multiple(
      String name, Pod pod, List<Pod> pods, List<Node> nodes, PreFilter preFilter, Outcome... expected) {
    return argumentSet(name, pod, pods, nodes, preFilter, List.of(expected));
  }

  private static Arguments multiple(String name, Pod pod, List<Pod> pods, List<Node> nodes, Outcome... expected) {
    return multiple(name, pod, pods, nodes, PreFilter.SUCCESS, expected);
  }

  static Stream<Arguments> requiredAffinityMultipleNodes() {
    var twoZones = List.of(full("nodeA", "r1", "z1"), full("nodeB", "r1", "z2"));
    var oneZone = List.of(full("nodeA", "r1", "z1"), full("nodeB", "r1", "z1"));
    var collection = pod().labels(Map.of("foo", "bar", "service", "securityscan"))
        .affinityIn("foo", "zone", "bar").affinityIn("service", "zone", "securityscan");
    return Stream.of(
        multiple(
            "A pod can be scheduled onto all the nodes that have the same topology key & label value with one of"
                + " them has an existing pod that matches the affinity rules",
            pod().affinityIn("foo", "region", "bar"),
            List.of(pod().name("p1").node("node1").labels(Map.of("foo", "bar"))),
            chinaChinaIndia("node1", "node2", "node3"),
            FIT, FIT, AFFINITY),
        multiple(
            "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod"
                + " of the collection should not be blocked from being scheduled onto any node, even there's no"
                + " existing pod that matches the rule anywhere.",
            collection,
            List.of(pod().name("p1").node("nodeA").labels(Map.of("foo", "bar"))),
            List.of(node("nodeA", Map.of("zone", "az1", "hostname", "h1")),
                node("nodeB", Map.of("zone", "az2", "hostname", "h2"))),
            FIT, FIT),
        multiple(
            "The first pod of the collection can only be scheduled on nodes labelled with the requested topology"
                + " keys",
            collection,
            List.of(pod().name("p1").node("nodeA").labels(Map.of("foo", "bar"))),
            List.of(node("nodeA", Map.of("zoneLabel", "az1", "hostname", "h1")),
                node("nodeB", Map.of("zoneLabel", "az2", "hostname", "h2"))),
            AFFINITY, AFFINITY),
        multiple(
            "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the"
                + " inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
            pod().antiAffinityIn("foo", "region", "abc"),
            List.of(pod().node("nodeA").labels(Map.of("foo", "abc"))),
            List.of(node("nodeA", Map.of("region", "r1", "hostname", "nodeA")),
                node("nodeB", Map.of("region", "r1", "hostname", "nodeB"))),
            ANTI_AFFINITY, ANTI_AFFINITY),
        multiple(
            "This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a"
                + " pod.",
            pod().antiAffinityIn("foo", "region", "abc").antiAffinityIn("service", "zone", "securityscan"),
            List.of(pod().node("nodeA").labels(Map.of("foo", "abc", "service", "securityscan"))),
            twoZones,
            ANTI_AFFINITY, ANTI_AFFINITY),
        multiple(
            "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the"
                + " inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled"
                + " onto nodeC",
            pod().antiAffinityIn("foo", "region", "abc"),
            List.of(pod().node("nodeA").labels(Map.of("foo", "abc"))),
            chinaChinaIndia("nodeA", "nodeB", "nodeC"),
            ANTI_AFFINITY, ANTI_AFFINITY, FIT),
        multiple(
            "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the"
                + " inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled"
                + " onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different"
                + " namespace)",
            pod().namespace("NS1").labels(Map.of("foo", "123")).antiAffinityIn("foo", "region", "bar"),
            List.of(pod().node("nodeA").namespace("NS1").labels(Map.of("foo", "bar")),
                pod().node("nodeC").namespace("NS2").antiAffinityIn("foo", "region", "123")),
            chinaChinaIndia("nodeA", "nodeB", "nodeC"),
            ANTI_AFFINITY, ANTI_AFFINITY, FIT),
        multiple(
            "Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey,"
                + " labelSelector of the term is firstly checked, and then topologyKey of the term is also checked",
            pod().label("foo", ""),
            List.of(pod().node("nodeA").antiAffinityExists("foo", "invalid-node-label")),
            oneZone, PreFilter.SKIP,
            FIT, FIT),
        multiple(
            "Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey"
                + " matches",
            pod().node("nodeA").antiAffinityExists("foo", "invalid-node-label"),
            List.of(pod().node("nodeA").labels(Map.of("foo", ""))),
            oneZone,
            FIT, FIT),
        multiple(
            "Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each"
                + " existingPod's terms on all nodes",
            pod().label("foo", "").label("bar", ""),
            List.of(pod().node("nodeA").antiAffinityExists("foo", "zone"),
                pod().node("nodeA").antiAffinityExists("bar", "region")),
            twoZones,
            EXISTING_ANTI_AFFINITY, EXISTING_ANTI_AFFINITY),
        multiple(
            "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates"
                + " one anti-affinity rule of existingPod",
            pod().antiAffinityExists("foo", "zone").antiAffinityExists("bar", "region"),
            List.of(pod().node("nodeA").labels(Map.of("foo", "")), pod().node("nodeB").labels(Map.of("bar", ""))),
            twoZones,
            ANTI_AFFINITY, ANTI_AFFINITY),
        multiple(
            "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted"
                + " as a single term match - case when one term has invalid topologyKey",
            pod().label("foo", "").label("bar", ""),
            List.of(pod().node("nodeA")
                .antiAffinityExists("foo", "invalid-node-label").antiAffinityExists("bar", "zone")),
            twoZones,
            EXISTING_ANTI_AFFINITY, FIT),
        multiple(
            "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted"
                + " as a single term match - case when one term has invalid topologyKey",
            pod().antiAffinityExists("foo", "invalid-node-label").antiAffinityExists("bar", "zone"),
            List.of(pod().name("podA").node("nodeA").labels(Map.of("foo", "", "bar", ""))),
            twoZones,
            ANTI_AFFINITY, FIT),
        multiple(
            "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted"
                + " as a single term match - case when all terms have valid topologyKey",
            pod().label("foo", "").label("bar", ""),
            List.of(pod().node("nodeA").antiAffinityExists("foo", "region").antiAffinityExists("bar", "zone")),
            twoZones,
            EXISTING_ANTI_AFFINITY, EXISTING_ANTI_AFFINITY),
        multiple(
            "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted"
                + " as a single term match - case when all terms have valid topologyKey",
            pod().antiAffinityExists("foo", "region").antiAffinityExists("bar", "zone"),
            List.of(pod().node("nodeA").labels(Map.of("foo", "", "bar", ""))),
            twoZones,
            ANTI_AFFINITY, ANTI_AFFINITY),
        multiple(
            "Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity"
                + " term matches incoming pod, so incoming pod can only be scheduled to nodeC",
            pod().label("foo", "").label("bar", ""),
            List.of(pod().node("nodeA").antiAffinityExists("foo", "zone").antiAffinityExists("labelA", "zone"),
                pod().node("nodeB").antiAffinityExists("bar", "zone").antiAffinityExists("labelB", "zone")),
            List.of(full("nodeA", "r1", "z1"), full("nodeB", "r1", "z2"), full("nodeC", "r1", "z3")),
            EXISTING_ANTI_AFFINITY, EXISTING_ANTI_AFFINITY, FIT),
        multiple(
            "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all"
                + " topologyKeys match",
            pod().affinityExists("foo", "region").affinityExists("bar", "zone"),
            List.of(pod().name("pod1").labels(Map.of("foo", "", "bar", "")).node("nodeA")),
            oneZone,
            FIT, FIT),
        multiple(
            "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all"
                + " topologyKeys match, and the match logic should be satisfied on the same pod",
            pod().affinityExists("foo", "region").affinityExists("bar", "zone"),
            List.of(pod().node("nodeA").name("pod1").labels(Map.of("foo", "")),
                pod().node("nodeB").name("pod2").labels(Map.of("bar", ""))),
            twoZones,
            AFFINITY, AFFINITY),
        multiple(
            "Test incoming pod's host-scoped affinity (fast path)",
            pod().affinityExists("foo", HOSTNAME),
            List.of(pod().name("pod1").labels(Map.of("foo", "")).node("nodeA")),
            List.of(node("nodeA", Map.of(HOSTNAME, "nodeA")), node("nodeB", Map.of(HOSTNAME, "nodeB"))),
            FIT, AFFINITY),
        multiple(
            "Test incoming pod's host-scoped anti-affinity (fast path)",
            pod().antiAffinityExists("foo", HOSTNAME),
            List.of(pod().name("pod1").labels(Map.of("foo", "")).node("nodeA")),
            List.of(node("nodeA", Map.of(HOSTNAME, "nodeA")), node("nodeB", Map.of(HOSTNAME, "nodeB"))),
            ANTI_AFFINITY, FIT));
  }

  @ParameterizedTest
  @MethodSource
  void requiredAffinityMultipleNodes(
      Pod pod, List<Pod> pods, List<Node> nodes, PreFilter preFilter, List<Outcome> expected) {
    check(cluster(nodes, pods, Map.of("NS1", Map.of())), pod.build(), preFilter, expected);
  }

  // ---------------------------------------------------------------- TestGetTPMapMatchingIncomingAffinityAntiAffinity

  private static Pod normal(String... labels) {
    var pod = pod().name("normal").node("nodeA");
    for (var label : labels) {
      pod.label(label, "");
    }
    return pod;
  }

  private static Arguments counts(
      String name, List<Pod> existing, Pod pod, Map<String, Map<String, Long>> affinity,
      Map<String, Map<String, Long>> antiAffinity) {
    return argumentSet(name, existing, pod, affinity, antiAffinity);
  }

  static Stream<Arguments> topologyCountsOfIncomingAffinityAndAntiAffinity() {
    Map<String, Map<String, Long>> none = Map.of();
    var one = Map.of(HOSTNAME, Map.of("nodeA", 1L));
    return Stream.of(
        counts("nil test", List.of(), pod().name("aaa-normal"), none, none),
        counts(
            "incoming pod without affinity/anti-affinity causes a no-op",
            List.of(normal("aaa")), pod().name("aaa-normal"), none, none),
        counts(
            "no pod has label that violates incoming pod's affinity and anti-affinity",
            List.of(normal("bbb")),
            pod().name("aaa-anti").affinityExists("aaa", HOSTNAME).antiAffinityExists("aaa", HOSTNAME),
            none, none),
        counts(
            "existing pod matches incoming pod's affinity and anti-affinity - single term case",
            List.of(normal("aaa")),
            pod().name("affi-antiaffi").affinityExists("aaa", HOSTNAME).antiAffinityExists("aaa", HOSTNAME),
            one, one),
        counts(
            "existing pod matches incoming pod's affinity and anti-affinity - multiple terms case",
            List.of(normal("aaa", "bbb")),
            pod().name("affi-antiaffi").affinityExists("aaa", HOSTNAME).affinityExists("bbb", HOSTNAME)
                .antiAffinityExists("aaa", HOSTNAME),
            Map.of(HOSTNAME, Map.of("nodeA", 2L)), one),
        counts(
            "existing pod not match incoming pod's affinity but matches anti-affinity",
            List.of(normal("aaa")),
            pod().name("affi-antiaffi").affinityExists("aaa", HOSTNAME).affinityExists("bbb", HOSTNAME)
                .antiAffinityExists("aaa", HOSTNAME).antiAffinityExists("bbb", HOSTNAME),
            none, one),
        counts(
            "incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 1",
            List.of(normal("aaa", "bbb")),
            pod().name("anaffi-antiaffiti").affinityExists("aaa", HOSTNAME).affinityExists("ccc", HOSTNAME)
                .antiAffinityExists("aaa", HOSTNAME).antiAffinityExists("ccc", HOSTNAME),
            none, one),
        counts(
            "incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 2",
            List.of(normal("bbb")),
            pod().name("affi-antiaffi").affinityExists("aaa", HOSTNAME).affinityExists("bbb", HOSTNAME)
                .antiAffinityExists("aaa", HOSTNAME).antiAffinityExists("bbb", HOSTNAME),
            none, one));
  }

  @ParameterizedTest
  @MethodSource
  void topologyCountsOfIncomingAffinityAndAntiAffinity(
      List<Pod> existing, Pod pod, Map<String, Map<String, Long>> affinity,
      Map<String, Map<String, Long>> antiAffinity) {
    var cluster = cluster(List.of(node("nodeA", Map.of(HOSTNAME, "nodeA"))), existing, Map.of());
    var prepared = (InterPodAffinityFilter.Prepared) filter.prepare(pod.build(), cluster);
    assertEquals(affinity, prepared.affinity().asMap(), "affinity counts");
    assertEquals(antiAffinity, prepared.antiAffinity().asMap(), "anti-affinity counts");
  }

  // ---------------------------------------------------------------- the remaining kube tests

  @Test
  @DisplayName("TestPreFilterDisabled: without its PreFilter state the filter fails")
  void preFilterDisabled() {
    var pod = pod().build();
    var node = NodeInfo.builder("n").build();
    var result = filter.filter(pod, node);
    assertEquals(FilterResult.error("InterPodAffinity filters only through prepare(pod, cluster)"), result);
  }

  @Test
  @DisplayName("TestRemovePodHostScopedAffinityCount: once the only matching pod is gone, self-affinity lets the"
      + " pod go anywhere")
  void removePodHostScopedAffinityCount() {
    var pending = pod().name("pending").labels(Map.of("foo", "bar")).affinityIn("foo", HOSTNAME, "bar").build();
    var existing = pod().name("existing").node("nodeA").labels(Map.of("foo", "bar"));
    var nodes = List.of(node("nodeA", Map.of(HOSTNAME, "nodeA")), node("nodeB", Map.of(HOSTNAME, "nodeB")));

    check(cluster(nodes, List.of(existing), Map.of()), pending, PreFilter.SUCCESS, List.of(FIT, AFFINITY));
    // kube removes the pod from the PreFilter state (preemption's RemovePod); here the snapshot lacks it.
    check(cluster(nodes, List.of(), Map.of()), pending, PreFilter.SUCCESS, List.of(FIT, FIT));
  }

  @Test
  @DisplayName("TestMultipleAffinityTermsRequireSingleMatchingPod")
  void multipleAffinityTermsRequireSingleMatchingPod() {
    var twoTerms = pod().name("pod-1").namespace("default")
        .affinityIn("foo", HOSTNAME, "bar").affinityIn("baz", HOSTNAME, "qux");
    var podA = pod().name("podA").namespace("default").label("foo", "bar").node("node-1");
    var podB = pod().name("podB").namespace("default").label("baz", "qux").node("node-1");
    var podC = pod().name("podC").namespace("default").label("foo", "bar").label("baz", "qux").node("node-3");
    var nodes = List.of(
        node("node-1", Map.of(HOSTNAME, "node-1")),
        node("node-2", Map.of(HOSTNAME, "node-2")),
        node("node-3", Map.of(HOSTNAME, "node-3")));
    var namespaces = Map.of("default", Map.<String, String>of());

    check(cluster(nodes, List.of(podA, podB, podC), namespaces), twoTerms.build(), PreFilter.SUCCESS,
        List.of(AFFINITY, AFFINITY, FIT));

    var self = twoTerms.label("foo", "bar").label("baz", "qux").build();
    var withoutC = cluster(nodes, List.of(podA, podB), namespaces);
    assertTrue(filter.prepare(self, withoutC).filter(self, withoutC.nodes().get(0)).fits(),
        "self-affinity on node-1");
  }

  @Test
  @DisplayName("TestFastTrackInterPodAffinity")
  void fastTrackInterPodAffinity() {
    var zone = "topology.kubernetes.io/zone";
    var zoneAntiAffinity = pod().name("pod-1").namespace("default").label("app", "foo")
        .antiAffinityIn("app", zone, "foo").build();
    var hostAntiAffinity = pod().name("pod-2").namespace("default").label("app", "bar")
        .antiAffinityIn("app", HOSTNAME, "bar").build();
    var namespaceAntiAffinity = pod().name("pod-3").namespace("other").label("app", "baz")
        .antiAffinity(term(selector(in("app", "blocked")), zone, Set.of(), selector(doesNotExist("team"))))
        .build();
    var cluster = cluster(
        List.of(node("node-1", Map.of(HOSTNAME, "node-1", zone, "zone-a")),
            node("node-2", Map.of(HOSTNAME, "node-2", zone, "zone-b"))),
        List.of(pod().name("pod-no-rules-foo").namespace("default").label("app", "foo").node("node-1"),
            pod().name("pod-no-rules-bar").namespace("default").label("app", "bar").node("node-2"),
            pod().name("pod-in-ns-with-team-label").namespace("blue-ns").label("app", "blocked")
                .label("team", "blue").node("node-1")),
        Map.of("default", Map.of(), "other", Map.of(), "blue-ns", Map.of("team", "blue")));
    var node1 = cluster.nodes().get(0);

    check(cluster, zoneAntiAffinity, PreFilter.SUCCESS, List.of(ANTI_AFFINITY, FIT));
    check(cluster, hostAntiAffinity, PreFilter.SUCCESS, List.of(FIT, ANTI_AFFINITY));
    assertTrue(filter.prepare(namespaceAntiAffinity, cluster).filter(namespaceAntiAffinity, node1).fits(),
        "blue-ns has a team label, so its pod is not selected");
  }

  // ---------------------------------------------------------------- beyond kube's tables

  @Test
  @DisplayName("a Policy with the filter refuses the nodes and reports kube's messages")
  void policyReportsKubeMessages() {
    var cluster = cluster(
        List.of(full("nodeA", "r1", "z1"), full("nodeB", "r1", "z2"), node("nodeC", Map.of("region", "r2"))),
        List.of(pod().node("nodeA").labels(Map.of("app", "db")),
            pod().node("nodeB").labels(Map.of("app", "cache")).antiAffinityExists("app", "zone")),
        Map.of());
    var pod = pod().name("web").labels(Map.of("app", "web"))
        .affinityExists("app", "region").antiAffinityIn("app", "zone", "db").build();
    var policy = Policy.builder().filter(new InterPodAffinityFilter()).build();

    var decision = assertInstanceOf(Decision.Unschedulable.class, policy.find(pod, cluster));

    assertEquals(
        Map.of(
            "nodeA", List.of("node(s) didn't match pod anti-affinity rules"),
            "nodeB", List.of("node(s) didn't satisfy existing pods anti-affinity rules"),
            "nodeC", List.of("node(s) didn't match pod affinity rules")),
        decision.reasonsByNode());
    assertEquals(
        "0/3 nodes are available: 1 node(s) didn't match pod affinity rules, 1 node(s) didn't match pod"
            + " anti-affinity rules, 1 node(s) didn't satisfy existing pods anti-affinity rules.",
        decision.message(3));
    assertEquals(Set.of(ClusterData.NAMESPACES), policy.reads());
  }

  @Test
  @DisplayName("a Policy with the filter places the pod where its rules hold")
  void policyBindsWhereRulesHold() {
    var cluster = cluster(
        List.of(full("nodeA", "r1", "z1"), full("nodeB", "r1", "z2"), full("nodeC", "r2", "z3")),
        List.of(pod().node("nodeA").labels(Map.of("app", "db"))),
        Map.of());
    var pod = pod().name("web").affinityIn("app", "region", "db").antiAffinityIn("app", "zone", "db").build();
    var policy = Policy.builder().filter(new InterPodAffinityFilter()).build();

    assertEquals(Decision.bind("nodeB"), policy.find(pod, cluster));
  }

  @Test
  @DisplayName("an incoming term's namespace selector looks only at namespaces the snapshot knows")
  void namespaceSelectorOnlySelectsKnownNamespaces() {
    var cluster = cluster(
        List.of(node("n", Map.of("zone", "z"))),
        List.of(pod().namespace("unknown").labels(Map.of("app", "db")).node("n")),
        Map.of("known", Map.of()));
    var pod = pod().namespace("known")
        .antiAffinity(term(selector(exists("app")), "zone", Set.of(), selector(doesNotExist("team")))).build();

    // kube lists the namespaces the selector matches; a pod's namespace it does not know is never among them.
    check(cluster, pod, PreFilter.SUCCESS, List.of(FIT));
  }

  @Test
  @DisplayName("an existing pod's namespace selector is matched against the incoming pod's namespace labels")
  void existingNamespaceSelectorSeesIncomingNamespaceLabels() {
    var nodes = List.of(node("n", Map.of("zone", "z")));
    var existing = pod().namespace("other").node("n")
        .antiAffinity(term(selector(exists("app")), "zone", Set.of(), selector(in("team", "red"))));
    var pod = pod().namespace("mine").labels(Map.of("app", "web")).build();

    check(cluster(nodes, List.of(existing), Map.of("mine", Map.of("team", "red"))), pod, PreFilter.SUCCESS,
        List.of(EXISTING_ANTI_AFFINITY));
    check(cluster(nodes, List.of(existing), Map.of("mine", Map.of("team", "blue"))), pod, PreFilter.SKIP,
        List.of(FIT));
  }

  @Test
  @DisplayName("a term without a label selector selects no pod")
  void nullSelectorSelectsNothing() {
    var cluster = cluster(List.of(node("n", Map.of("zone", "z"))), List.of(pod().node("n")), Map.of());
    var pod = pod().antiAffinity(term(null, "zone")).build();
    check(cluster, pod, PreFilter.SUCCESS, List.of(FIT));
    var affine = pod().affinity(term(null, "zone")).build();
    check(cluster, affine, PreFilter.SUCCESS, List.of(AFFINITY));
  }

  @Test
  @DisplayName("the plugin's name and what it reads")
  void nameAndReads() {
    assertEquals("InterPodAffinity", filter.name());
    assertEquals(Set.of(ClusterData.NAMESPACES), filter.reads());
    var prepared = filter.prepare(pod().build(), ClusterSnapshot.of(List.of()));
    assertEquals("InterPodAffinity", prepared.name());
    assertEquals(Set.of(ClusterData.NAMESPACES), prepared.reads());
    assertFalse(prepared.filter(pod().build(), NodeInfo.builder("n").build()) instanceof FilterResult.Rejected);
  }
}
