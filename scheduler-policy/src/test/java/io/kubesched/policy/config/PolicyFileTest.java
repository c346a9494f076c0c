package io.kubesched.policy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.WeightedScorer;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.Scorers;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityScorer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Policy files: the former kube-scheduler shape, in JSON and YAML, and the errors for what is wrong. */
class PolicyFileTest {

  private static final String YAML =
      """
      kind: Policy
      apiVersion: v1
      predicates:
        - name: PodFitsResources
        - name: PodToleratesNodeTaints
        - name: ZoneRequired
          argument:
            labelsPresence:
              labels: [topology.kubernetes.io/zone]
              presence: true
      priorities:
        - name: LeastRequestedPriority
          weight: 1
        - name: PreferSsd
          weight: 2
          argument:
            labelPreference: {label: disktype, presence: true}
        - name: Packing
          weight: 3
          argument:
            requestedToCapacityRatioArguments:
              shape: [{utilization: 0, score: 0}, {utilization: 100, score: 10}]
              resources: [{name: cpu, weight: 2}, {name: memory}]
      percentageOfNodesToScore: 30
      """;

  private static final String JSON =
      """
      {"kind": "Policy", "apiVersion": "v1",
       "predicates": [{"name": "PodFitsResources"}, {"name": "PodToleratesNodeTaints"},
         {"name": "ZoneRequired", "argument": {"labelsPresence": {"labels": ["topology.kubernetes.io/zone"], "presence": true}}}],
       "priorities": [{"name": "LeastRequestedPriority", "weight": 1},
         {"name": "PreferSsd", "weight": 2, "argument": {"labelPreference": {"label": "disktype", "presence": true}}},
         {"name": "Packing", "weight": 3, "argument": {"requestedToCapacityRatioArguments": {
            "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}],
            "resources": [{"name": "cpu", "weight": 2}, {"name": "memory"}]}}}],
       "percentageOfNodesToScore": 30}
      """;

  private static List<String> filterNames(io.kubesched.policy.Policy policy) {
    return policy.filters().stream().map(Filter::name).toList();
  }

  private static List<String> scorerNames(io.kubesched.policy.Policy policy) {
    return policy.scorers().stream().map(ws -> ws.scorer().name() + "*" + ws.weight()).toList();
  }

  @Test
  void yaml_and_json_read_to_the_same_policy() {
    var yaml = PolicyFile.parse(YAML, "policy.yaml");
    var json = PolicyFile.parse(JSON, "policy.json");

    var expectedFilters =
        List.of(Filters.resourcesFit().name(), Filters.taintToleration().name(), "ZoneRequired");
    assertEquals(expectedFilters, filterNames(yaml));
    assertEquals(expectedFilters, filterNames(json));
    var expectedScorers = List.of(Scorers.leastAllocated().name() + "*1", "PreferSsd*2", "Packing*3");
    assertEquals(expectedScorers, scorerNames(yaml));
    assertEquals(expectedScorers, scorerNames(json));
    assertEquals(30, yaml.percentageOfNodesToScore());
    assertEquals(30, json.percentageOfNodesToScore());
  }

  @Test
  void the_configured_plugins_decide() {
    var policy = PolicyFile.parse(YAML, "policy.yaml");
    var pod = PodInfo.builder("default", "web").requests(500, 1L << 30).build();
    var noZone = NodeInfo.builder("no-zone").allocatable(4000, 8L << 30, 110).build();
    var hdd =
        NodeInfo.builder("hdd")
            .labels(Map.of("topology.kubernetes.io/zone", "a"))
            .allocatable(4000, 8L << 30, 110)
            .build();
    var ssd =
        NodeInfo.builder("ssd")
            .labels(Map.of("topology.kubernetes.io/zone", "a", "disktype", "ssd"))
            .allocatable(4000, 8L << 30, 110)
            .build();

    var explanation = policy.explain(pod, List.of(noZone, hdd, ssd));

    assertEquals(Decision.bind("ssd"), explanation.decision());
    assertEquals(
        List.of("node(s) didn't have the requested labels"),
        ((io.kubesched.policy.framework.FilterResult.Rejected)
                explanation.node("no-zone").orElseThrow().filters().get(2).result())
            .reasons().stream().map(r -> r.message()).toList());
    assertEquals(100L, explanation.node("ssd").orElseThrow().scores().get("PreferSsd"));
    assertEquals(0L, explanation.node("hdd").orElseThrow().scores().get("PreferSsd"));
  }

  @Test
  void without_predicates_or_priorities_the_defaults_apply_and_empty_lists_mean_none() {
    var defaults = PolicyFile.parse("kind: Policy\n", "p.yaml");
    var empty = PolicyFile.parse("kind: Policy\npredicates: []\npriorities: []\n", "p.yaml");

    assertEquals(Filters.defaults().stream().map(Filter::name).toList(), filterNames(defaults));
    assertEquals(
        Scorers.defaults().stream().map(ws -> ws.scorer().name() + "*" + ws.weight()).toList(),
        scorerNames(defaults));
    assertEquals(List.of(), empty.filters());
    assertEquals(List.<WeightedScorer>of(), empty.scorers());
  }

  @Test
  void inter_pod_affinity_and_topology_spread_are_named_as_kube_named_them_then_and_now() {
    var former =
        PolicyFile.parse(
            "predicates: [{name: MatchInterPodAffinity}, {name: EvenPodsSpread}]\n"
                + "priorities: [{name: InterPodAffinityPriority, weight: 2}, {name: EvenPodsSpreadPriority, weight: 2}]\n"
                + "hardPodAffinitySymmetricWeight: 7",
            "p.yaml");
    var current =
        PolicyFile.parse(
            "predicates: [{name: InterPodAffinity}, {name: PodTopologySpread}]\n"
                + "priorities: [{name: InterPodAffinity, weight: 2}, {name: PodTopologySpread, weight: 2}]",
            "p.yaml");

    var names = List.of("InterPodAffinity", "PodTopologySpread");
    assertEquals(names, filterNames(former));
    assertEquals(names, filterNames(current));
    assertEquals(List.of("InterPodAffinity*2", "PodTopologySpread*2"), scorerNames(former));
    assertEquals(7, ((InterPodAffinityScorer) former.scorers().get(0).scorer()).hardPodAffinityWeight());
    assertEquals(1, ((InterPodAffinityScorer) current.scorers().get(0).scorer()).hardPodAffinityWeight());
    assertEquals(
        Set.of(ClusterData.NAMESPACES, ClusterData.SERVICES, ClusterData.REPLICATION_CONTROLLERS,
            ClusterData.REPLICA_SETS, ClusterData.STATEFUL_SETS, ClusterData.POD_DISRUPTION_BUDGETS),
        current.reads());
  }

  @Test
  void general_predicates_stand_for_resources_host_name_ports_and_node_selector() {
    var policy = PolicyFile.parse("predicates: [{name: GeneralPredicates}]\npriorities: []", "p.yaml");

    assertEquals(
        List.of(
            Filters.resourcesFit().name(),
            Filters.nodeName().name(),
            Filters.nodePorts().name(),
            Filters.nodeAffinity().name()),
        filterNames(policy));
  }

  @Test
  void a_file_is_read_from_disk_and_a_missing_one_is_named(@TempDir Path dir) throws Exception {
    var file = dir.resolve("policy.json");
    Files.writeString(file, JSON);

    assertEquals(3, PolicyFile.read(file).filters().size());
    var missing = dir.resolve("nope.yaml");
    var error = assertThrows(ConfigurationException.class, () -> PolicyFile.read(missing));
    assertTrue(error.getMessage().startsWith("policy file " + missing + " cannot be read"), error.getMessage());
  }

  static Stream<Arguments> invalid_files() {
    return Stream.of(
        Arguments.of(
            "an unknown predicate lists the valid names",
            "predicates: [{name: PodFitsGpu}]",
            "policy file p.yaml: predicates[0].name \"PodFitsGpu\" is not a known predicate; valid: "
                + "[CheckNodeUnschedulable, CheckVolumeBinding, EvenPodsSpread, GeneralPredicates, InterPodAffinity, "
                + "MatchInterPodAffinity, MatchNodeSelector, MaxCSIVolumeCountPred, NoDiskConflict, NoVolumeZoneConflict, "
                + "NodeDeclaredFeatures, NodeVolumeLimits, PodFitsHost, PodFitsHostPorts, PodFitsResources, PodToleratesNodeTaints, "
                + "PodTopologySpread, VolumeBinding, VolumeZone], registered: [], or any name with "
                + "an argument [labelsPresence, serviceAffinity]"),
        Arguments.of(
            "an unknown priority lists the valid names",
            "priorities: [{name: MostFreeGpu, weight: 1}]",
            "policy file p.yaml: priorities[0].name \"MostFreeGpu\" is not a known priority; valid: "
                + "[BalancedResourceAllocation, EvenPodsSpreadPriority, ImageLocalityPriority, InterPodAffinity, "
                + "InterPodAffinityPriority, LeastRequestedPriority, MostRequestedPriority, NodeAffinityPriority, "
                + "PodTopologySpread, SelectorSpreadPriority, TaintTolerationPriority], registered: [], or any name with an argument [labelPreference, "
                + "requestedToCapacityRatioArguments, serviceAntiAffinity]"),
        Arguments.of(
            "a zero weight",
            "priorities: [{name: LeastRequestedPriority, weight: 0}]",
            "policy file p.yaml: priorities[0].weight must be a positive integer, was 0"),
        Arguments.of(
            "a negative weight",
            "priorities: [{name: LeastRequestedPriority, weight: -2}]",
            "policy file p.yaml: priorities[0].weight must be a positive integer, was -2"),
        Arguments.of(
            "a missing weight",
            "priorities: [{name: LeastRequestedPriority}]",
            "policy file p.yaml: priorities[0].weight is required"),
        Arguments.of(
            "a weight that is not a number",
            "priorities: [{name: LeastRequestedPriority, weight: heavy}]",
            "policy file p.yaml: priorities[0].weight must be an integer, was \"heavy\""),
        Arguments.of(
            "a label presence predicate without its argument",
            "predicates: [{name: CheckNodeLabelPresence}]",
            "policy file p.yaml: predicates[0] predicate CheckNodeLabelPresence needs an argument labelsPresence"),
        Arguments.of(
            "a requested-to-capacity priority without its argument",
            "priorities: [{name: RequestedToCapacityRatioPriority, weight: 1}]",
            "policy file p.yaml: priorities[0] priority RequestedToCapacityRatioPriority needs an argument "
                + "requestedToCapacityRatioArguments"),
        Arguments.of(
            "label presence without labels",
            "predicates: [{name: Zone, argument: {labelsPresence: {labels: [], presence: true}}}]",
            "policy file p.yaml: predicates[0].argument.labelsPresence.labels must name at least one label"),
        Arguments.of(
            "label presence without presence",
            "predicates: [{name: Zone, argument: {labelsPresence: {labels: [zone]}}}]",
            "policy file p.yaml: predicates[0].argument.labelsPresence.presence is required"),
        Arguments.of(
            "an unknown argument",
            "predicates: [{name: Zone, argument: {volumeLimits: {max: 3}}}]",
            "policy file p.yaml: predicates[0].argument.volumeLimits is not a known field; valid: "
                + "[labelsPresence, serviceAffinity]"),
        Arguments.of(
            "service affinity without labels",
            "predicates: [{name: SameZone, argument: {serviceAffinity: {labels: []}}}]",
            "policy file p.yaml: predicates[0].argument.serviceAffinity.labels must name at least one label"),
        Arguments.of(
            "service affinity with a missing labels field",
            "predicates: [{name: SameZone, argument: {serviceAffinity: {}}}]",
            "policy file p.yaml: predicates[0].argument.serviceAffinity.labels is required"),
        Arguments.of(
            "service affinity with labels that are not a list",
            "predicates: [{name: SameZone, argument: {serviceAffinity: {labels: zone}}}]",
            "policy file p.yaml: predicates[0].argument.serviceAffinity.labels must be a list, was \"zone\""),
        Arguments.of(
            "service affinity with an empty label",
            "predicates: [{name: SameZone, argument: {serviceAffinity: {labels: [zone, \"\"]}}}]",
            "policy file p.yaml: predicates[0].argument.serviceAffinity.labels[1] must be a non-empty string, "
                + "was \"\""),
        Arguments.of(
            "service affinity with the priority's field",
            "predicates: [{name: SameZone, argument: {serviceAffinity: {label: zone}}}]",
            "policy file p.yaml: predicates[0].argument.serviceAffinity.label is not a known field; valid: "
                + "[labels]"),
        Arguments.of(
            "the former service affinity predicate without its argument",
            "predicates: [{name: CheckServiceAffinity}]",
            "policy file p.yaml: predicates[0] predicate CheckServiceAffinity needs an argument serviceAffinity"),
        Arguments.of(
            "two service affinity predicates of one name",
            "predicates: [{name: Same, argument: {serviceAffinity: {labels: [zone]}}}, "
                + "{name: Same, argument: {serviceAffinity: {labels: [rack]}}}]",
            "policy file p.yaml: predicates[1].name repeats a predicate: filter Same is already in the policy"),
        Arguments.of(
            "service anti-affinity without a label",
            "priorities: [{name: RackSpread, weight: 3, argument: {serviceAntiAffinity: {}}}]",
            "policy file p.yaml: priorities[0].argument.serviceAntiAffinity.label is required"),
        Arguments.of(
            "service anti-affinity with a list of labels",
            "priorities: [{name: RackSpread, weight: 3, argument: {serviceAntiAffinity: {label: [rack]}}}]",
            "policy file p.yaml: priorities[0].argument.serviceAntiAffinity.label must be a non-empty string, "
                + "was [\"rack\"]"),
        Arguments.of(
            "service anti-affinity with the predicate's field",
            "priorities: [{name: RackSpread, weight: 3, argument: {serviceAntiAffinity: {labels: [rack]}}}]",
            "policy file p.yaml: priorities[0].argument.serviceAntiAffinity.labels is not a known field; valid: "
                + "[label]"),
        Arguments.of(
            "service anti-affinity without a weight",
            "priorities: [{name: RackSpread, argument: {serviceAntiAffinity: {label: rack}}}]",
            "policy file p.yaml: priorities[0].weight is required"),
        Arguments.of(
            "two arguments in one priority",
            "priorities: [{name: RackSpread, weight: 1, argument: {serviceAntiAffinity: {label: rack}, "
                + "labelPreference: {label: rack, presence: true}}}]",
            "policy file p.yaml: priorities[0].argument must hold exactly one of [labelPreference, "
                + "requestedToCapacityRatioArguments, serviceAntiAffinity], had [serviceAntiAffinity, "
                + "labelPreference]"),
        Arguments.of(
            "an unknown top-level field",
            "extenders: []",
            "policy file p.yaml: extenders is not a Policy field; valid: [apiVersion, "
                + "hardPodAffinitySymmetricWeight, kind, percentageOfNodesToScore, predicates, preemption, priorities]"),
        Arguments.of(
            "another kind",
            "kind: KubeSchedulerConfiguration",
            "policy file p.yaml: kind must be Policy, was \"KubeSchedulerConfiguration\""),
        Arguments.of(
            "predicates that are not a list",
            "predicates: PodFitsResources",
            "policy file p.yaml: predicates must be a list, was \"PodFitsResources\""),
        Arguments.of(
            "a priority named twice",
            "priorities: [{name: LeastRequestedPriority, weight: 1}, {name: LeastRequestedPriority, weight: 2}]",
            "policy file p.yaml: priorities[1].name repeats a priority: scorer "
                + Scorers.leastAllocated().name() + " is already in the policy"),
        Arguments.of(
            "a percentage above 100",
            "percentageOfNodesToScore: 120",
            "policy file p.yaml: percentageOfNodesToScore must be 0 (adaptive) to 100, was 120"),
        Arguments.of(
            "a hard pod affinity weight above 100",
            "hardPodAffinitySymmetricWeight: 101",
            "policy file p.yaml: hardPodAffinitySymmetricWeight must be 0 to 100, was 101"),
        Arguments.of("an empty file", "", "policy file p.yaml: (document) is empty; expected kind: Policy with "
            + "predicates and priorities"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid_files")
  void an_invalid_policy_file_is_an_error_naming_the_field_and_value(String name, String text, String message) {
    var error = assertThrows(ConfigurationException.class, () -> PolicyFile.parse(text, "p.yaml"));

    assertEquals(message, error.getMessage());
  }

  @Test
  void json_indented_with_tabs_and_a_yaml_flow_mapping_are_both_read() {
    var json = PolicyFile.parse("{\n\t\"kind\" : \"Policy\",\n\t\"predicates\" : [{\"name\" : \"PodFitsHost\"}]\n}", "p.json");
    var flow = PolicyFile.parse("{kind: Policy, predicates: [{name: PodFitsHost}]}", "p.yaml");

    assertEquals(List.of(Filters.nodeName().name()), filterNames(json));
    assertEquals(List.of(Filters.nodeName().name()), filterNames(flow));
  }

  @Test
  void the_service_rules_read_from_a_policy_file_decide_and_read_services() {
    var policy =
        PolicyFile.parse(
            """
            predicates:
              - name: SameZone
                argument: {serviceAffinity: {labels: [zone]}}
            priorities:
              - name: RackSpread
                weight: 3
                argument: {serviceAntiAffinity: {label: rack}}
            """,
            "p.yaml");

    assertEquals(List.of("SameZone"), filterNames(policy));
    assertEquals(List.of("RackSpread*3"), scorerNames(policy));
    // A Policy file preempts unless it says otherwise, so it reads PodDisruptionBudgets too.
    assertEquals(Set.of(ClusterData.SERVICES, ClusterData.POD_DISRUPTION_BUDGETS), policy.reads());
  }

  @Test
  void text_that_is_neither_json_nor_yaml_is_an_error_naming_the_file() {
    var error = assertThrows(ConfigurationException.class, () -> PolicyFile.parse("predicates: [", "p.yaml"));
    var json = assertThrows(ConfigurationException.class, () -> PolicyFile.parse("{\"kind\": [}", "p.json"));

    assertTrue(error.getMessage().startsWith("policy file p.yaml is neither JSON nor YAML: "), error.getMessage());
    assertTrue(json.getMessage().startsWith("policy file p.json is neither JSON nor YAML: "), json.getMessage());
  }
}
