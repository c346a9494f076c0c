package io.kubesched.policy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.Decision;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeAffinity;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.PreScorer;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.plugins.nodeaffinity.NodeAffinityFilter;
import io.kubesched.policy.plugins.serviceaffinity.ServiceAffinityFilter;
import io.kubesched.policy.plugins.serviceaffinity.ServiceAntiAffinityScorer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registering one's own filters and scorers under names a Policy file may use. */
class PolicyFileLoaderTest {

  static final Filter GPU_READY =
      new Filter() {
        @Override
        public String name() {
          return "GpuReady";
        }

        @Override
        public FilterResult filter(PodInfo pod, NodeInfo node) {
          return node.labels().containsKey("gpu") ? FilterResult.fit() : FilterResult.unresolvable(
              io.kubesched.policy.framework.Reason.of("node(s) had no ready GPU"));
        }
      };

  static final Scorer IDLE =
      new Scorer() {
        @Override
        public String name() {
          return "Idle";
        }

        @Override
        public long score(PodInfo pod, NodeInfo node) {
          return node.pods().isEmpty() ? MAX_SCORE : 0;
        }
      };

  @Test
  void a_registered_filter_keeps_naming_nodes_and_turning_pods_away_under_the_files_name() {
    var policy =
        PolicyFile.loader().filter("Pinned", new NodeAffinityFilter()).parse("predicates: [{name: Pinned}]", "p.yaml");
    var nodes = List.of(NodeInfo.builder("n0").build(), NodeInfo.builder("n1").build(), NodeInfo.builder("n2").build());

    var pinned = podNaming(List.of(List.of("n1")));
    assertEquals(Decision.bind("n1"), policy.find(pinned, nodes));
    var elsewhere = (Decision.Unschedulable) policy.find(podNaming(List.of(List.of("n9"))), nodes);
    var notHelpful = " preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
    assertEquals("0/3 nodes are available: 3 node(s) didn't satisfy plugin(s) [Pinned]." + notHelpful, elsewhere.message(3));
    var torn = (Decision.Unschedulable) policy.find(podNaming(List.of(List.of("n0", "n1"))), nodes);
    assertEquals("0/3 nodes are available: pod affinity terms conflict." + notHelpful, torn.message(3));
  }

  /** A pod with one required term per list, each with a {@code metadata.name In} requirement per name. */
  private static PodInfo podNaming(List<List<String>> terms) {
    var required = terms.stream()
        .map(names -> new NodeSelectorTerm(List.of(), names.stream()
            .map(name -> NodeSelectorRequirement.of(NodeSelectorTerm.NODE_NAME_FIELD, NodeSelectorRequirement.Operator.IN, name))
            .toList()))
        .toList();
    return PodInfo.builder("ns", "pinned").affinity(new NodeAffinity(required, List.of())).build();
  }

  @Test
  void a_registered_filter_and_scorer_are_named_by_the_file_and_the_files_weight_applies() {
    var policy =
        PolicyFile.loader()
            .filter("PredicateOne", GPU_READY)
            .scorer("PriorityOne", IDLE)
            .parse("predicates: [{name: PredicateOne}]\npriorities: [{name: PriorityOne, weight: 4}]", "p.yaml");

    assertEquals(List.of("PredicateOne"), policy.filters().stream().map(Filter::name).toList());
    assertEquals("PriorityOne", policy.scorers().get(0).scorer().name());
    assertEquals(4, policy.scorers().get(0).weight());
    var busy = NodeInfo.builder("busy").labels(Map.of("gpu", "1")).build()
        .withPod(PodInfo.builder("ns", "other").nodeName("busy").build());
    var idle = NodeInfo.builder("idle").labels(Map.of("gpu", "1")).build();
    var cpu = NodeInfo.builder("cpu").build();
    var explanation = policy.explain(PodInfo.builder("ns", "p").build(), List.of(busy, cpu, idle));
    assertEquals(Decision.bind("idle"), explanation.decision());
    assertEquals(400L, explanation.node("idle").orElseThrow().total());
  }

  @Test
  void a_plugin_registered_under_its_own_name_is_used_as_it_is() {
    var policy = PolicyFile.loader().filter("GpuReady", GPU_READY).parse("predicates: [{name: GpuReady}]", "p");

    assertSame(GPU_READY, policy.filters().get(0));
  }

  @Test
  void a_renamed_plugin_keeps_its_prepare_steps_and_what_it_reads() {
    var loader =
        PolicyFile.loader()
            .filter("SameZone", new ServiceAffinityFilter(List.of("zone")))
            .scorer("RackSpread", new ServiceAntiAffinityScorer("rack"));
    var policy =
        loader.parse("predicates: [{name: SameZone}]\npriorities: [{name: RackSpread, weight: 1}]", "p.yaml");
    var filter = policy.filters().get(0);
    var scorer = policy.scorers().get(0).scorer();

    assertInstanceOf(PreFilter.class, filter);
    assertInstanceOf(PreScorer.class, scorer);
    // A Policy file preempts unless it says otherwise, so it reads PodDisruptionBudgets too.
    assertEquals(Set.of(ClusterData.SERVICES, ClusterData.POD_DISRUPTION_BUDGETS), policy.reads());
    var web = Map.of("app", "web");
    var a1 = NodeInfo.builder("a1").labels(Map.of("zone", "a", "rack", "r1")).build()
        .withPod(PodInfo.builder("ns", "web-0").labels(web).nodeName("a1").build());
    var a2 = NodeInfo.builder("a2").labels(Map.of("zone", "a", "rack", "r2")).build();
    var b1 = NodeInfo.builder("b1").labels(Map.of("zone", "b", "rack", "r3")).build();
    var cluster =
        ClusterSnapshot.of(
            List.of(a1, a2, b1),
            Map.of(),
            List.of(new WorkloadSelector(WorkloadSelector.Kind.SERVICE, "ns", "web", LabelSelector.of(web))));
    var explanation = policy.explain(PodInfo.builder("ns", "web-1").labels(web).build(), cluster);
    assertEquals(Decision.bind("a2"), explanation.decision());
    // The prepared filter speaks under the registered name too.
    assertEquals("SameZone", explanation.node("b1").orElseThrow().filters().get(0).filter());
  }

  @Test
  void registering_returns_a_new_loader_and_the_static_entry_points_know_only_built_in_names() {
    var empty = PolicyFile.loader();
    var one = empty.filter("PredicateOne", GPU_READY);

    assertEquals(Set.of(), empty.filterNames());
    assertEquals(Set.of("PredicateOne"), one.filterNames());
    assertEquals(Set.of(), one.scorerNames());
    var error =
        assertThrows(
            ConfigurationException.class, () -> PolicyFile.parse("predicates: [{name: PredicateOne}]", "p.yaml"));
    assertEquals(
        "policy file p.yaml: predicates[0].name \"PredicateOne\" is not a known predicate; valid: "
            + "[CheckNodeUnschedulable, CheckVolumeBinding, EvenPodsSpread, GeneralPredicates, InterPodAffinity, "
            + "MatchInterPodAffinity, MatchNodeSelector, MaxCSIVolumeCountPred, NoDiskConflict, NoVolumeZoneConflict, "
            + "NodeDeclaredFeatures, NodeVolumeLimits, PodFitsHost, PodFitsHostPorts, PodFitsResources, PodToleratesNodeTaints, "
            + "PodTopologySpread, VolumeBinding, VolumeZone], registered: [], or any name with an "
            + "argument [labelsPresence, serviceAffinity]",
        error.getMessage());
  }

  @Test
  void one_name_may_be_a_predicate_and_a_priority() {
    var policy =
        PolicyFile.loader()
            .filter("Gpu", GPU_READY)
            .scorer("Gpu", IDLE)
            .parse("predicates: [{name: Gpu}]\npriorities: [{name: Gpu, weight: 1}]", "p.yaml");

    assertEquals("Gpu", policy.filters().get(0).name());
    assertEquals("Gpu", policy.scorers().get(0).scorer().name());
  }

  @Test
  void an_unknown_name_lists_the_built_in_and_registered_ones() {
    var loader = PolicyFile.loader().filter("PredicateOne", GPU_READY).scorer("PriorityOne", IDLE);

    var predicate =
        assertThrows(
            ConfigurationException.class, () -> loader.parse("predicates: [{name: PredicateThree}]", "p.yaml"));
    var priority =
        assertThrows(
            ConfigurationException.class,
            () -> loader.parse("priorities: [{name: PriorityThree, weight: 1}]", "p.yaml"));

    assertEquals(
        "policy file p.yaml: predicates[0].name \"PredicateThree\" is not a known predicate; valid: "
            + "[CheckNodeUnschedulable, CheckVolumeBinding, EvenPodsSpread, GeneralPredicates, InterPodAffinity, "
            + "MatchInterPodAffinity, MatchNodeSelector, MaxCSIVolumeCountPred, NoDiskConflict, NoVolumeZoneConflict, "
            + "NodeDeclaredFeatures, NodeVolumeLimits, PodFitsHost, PodFitsHostPorts, PodFitsResources, PodToleratesNodeTaints, "
            + "PodTopologySpread, VolumeBinding, VolumeZone], registered: [PredicateOne], or any "
            + "name with an argument [labelsPresence, serviceAffinity]",
        predicate.getMessage());
    assertEquals(
        "policy file p.yaml: priorities[0].name \"PriorityThree\" is not a known priority; valid: "
            + "[BalancedResourceAllocation, EvenPodsSpreadPriority, ImageLocalityPriority, InterPodAffinity, "
            + "InterPodAffinityPriority, LeastRequestedPriority, MostRequestedPriority, NodeAffinityPriority, "
            + "PodTopologySpread, SelectorSpreadPriority, TaintTolerationPriority], registered: [PriorityOne], "
            + "or any name with an argument [labelPreference, requestedToCapacityRatioArguments, "
            + "serviceAntiAffinity]",
        priority.getMessage());
  }

  @Test
  void a_registered_plugin_takes_no_argument() {
    var loader = PolicyFile.loader().filter("PredicateOne", GPU_READY).scorer("PriorityOne", IDLE);

    var predicate =
        assertThrows(
            ConfigurationException.class,
            () ->
                loader.parse(
                    "predicates: [{name: PredicateOne, argument: {serviceAffinity: {labels: [zone]}}}]", "p.yaml"));
    var priority =
        assertThrows(
            ConfigurationException.class,
            () ->
                loader.parse(
                    "priorities: [{name: PriorityOne, weight: 1, argument: {serviceAntiAffinity: {label: r}}}]",
                    "p.yaml"));

    assertEquals(
        "policy file p.yaml: predicates[0].argument is given to the registered predicate PredicateOne, which "
            + "takes none",
        predicate.getMessage());
    assertEquals(
        "policy file p.yaml: priorities[0].argument is given to the registered priority PriorityOne, which "
            + "takes none",
        priority.getMessage());
  }

  @Test
  void a_name_cannot_be_registered_twice() {
    var loader = PolicyFile.loader().filter("PredicateOne", GPU_READY).scorer("PriorityOne", IDLE);

    var filter = assertThrows(ConfigurationException.class, () -> loader.filter("PredicateOne", GPU_READY));
    var scorer = assertThrows(ConfigurationException.class, () -> loader.scorer("PriorityOne", IDLE));

    assertEquals("predicate PredicateOne is already registered; registered: [PredicateOne]", filter.getMessage());
    assertEquals("priority PriorityOne is already registered; registered: [PriorityOne]", scorer.getMessage());
  }

  @Test
  void a_built_in_name_cannot_be_registered() {
    var loader = PolicyFile.loader();

    for (var name : List.of("PodFitsResources", "GeneralPredicates", "CheckNodeLabelPresence", "CheckServiceAffinity")) {
      var error = assertThrows(ConfigurationException.class, () -> loader.filter(name, GPU_READY));
      assertEquals("predicate " + name + " is built in and cannot be registered; choose another name",
          error.getMessage());
    }
    for (var name : List.of("LeastRequestedPriority", "NodeLabelPriority", "RequestedToCapacityRatioPriority")) {
      var error = assertThrows(ConfigurationException.class, () -> loader.scorer(name, IDLE));
      assertEquals("priority " + name + " is built in and cannot be registered; choose another name",
          error.getMessage());
    }
    // Predicate and priority names are apart: a priority's name is free as a predicate's.
    assertEquals(Set.of("LeastRequestedPriority"), loader.filter("LeastRequestedPriority", GPU_READY).filterNames());
  }

  @Test
  void a_blank_name_cannot_be_registered() {
    var error = assertThrows(ConfigurationException.class, () -> PolicyFile.loader().filter(" ", GPU_READY));

    assertEquals("a registered predicate name must not be blank, was \" \"", error.getMessage());
  }

  @Test
  void a_loader_reads_a_file_from_disk(@TempDir Path dir) throws Exception {
    var file = dir.resolve("policy.yaml");
    Files.writeString(file, "predicates: [{name: PredicateOne}]\npriorities: [{name: PriorityOne, weight: 2}]\n");

    var policy = PolicyFile.loader().filter("PredicateOne", GPU_READY).scorer("PriorityOne", IDLE).read(file);

    assertEquals(1, policy.filters().size());
    assertEquals(2, policy.scorers().get(0).weight());
  }
}
