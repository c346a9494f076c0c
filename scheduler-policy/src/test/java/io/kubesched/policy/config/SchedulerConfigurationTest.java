package io.kubesched.policy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreferredSchedulingTerm;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import io.kubesched.policy.PreemptionArgs;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.WeightedScorer;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import io.kubesched.policy.plugins.args.ScoredResource;
import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityScorer;
import io.kubesched.policy.plugins.nodeaffinity.NodeAffinityFilter;
import io.kubesched.policy.plugins.nodeaffinity.NodeAffinityScorer;
import io.kubesched.policy.plugins.noderesources.BalancedAllocationScorer;
import io.kubesched.policy.plugins.noderesources.MostAllocatedScorer;
import io.kubesched.policy.plugins.noderesources.NodeResourcesFitFilter;
import io.kubesched.policy.plugins.noderesources.RequestedToCapacityRatioScorer;
import io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFilter;
import io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadScorer;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingScorer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** KubeSchedulerConfiguration files: what is read, kube's defaulting, and every kind of error. */
class SchedulerConfigurationTest {

  static final String HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

  /** kube-scheduler 1.37.2's default profile, resolved per extension point (its start-up log). */
  static final Map<String, List<String>> KUBE_DEFAULT_PLUGINS =
      Map.ofEntries(
          Map.entry("preFilter", List.of(
              "NodeName", "NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit",
              "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
              "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures")),
          Map.entry("filter", List.of(
              "NodeName", "NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit",
              "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
              "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures")),
          Map.entry("postFilter", List.of("DynamicResources", "DefaultPreemption")),
          Map.entry("reserve", List.of("VolumeBinding", "DynamicResources")),
          Map.entry("preScore", List.of(
              "TaintToleration", "NodeAffinity", "NodeResourcesFit", "VolumeBinding", "PodTopologySpread",
              "InterPodAffinity", "NodeResourcesBalancedAllocation")),
          Map.entry("score", List.of(
              "TaintToleration:3", "NodeAffinity:2", "NodeResourcesFit:1", "VolumeBinding:1", "PodTopologySpread:2",
              "InterPodAffinity:2", "DynamicResources:2", "NodeResourcesBalancedAllocation:1", "ImageLocality:1")),
          Map.entry("preBind", List.of("VolumeBinding", "DynamicResources")),
          Map.entry("bind", List.of("DefaultBinder")),
          Map.entry("preEnqueue", List.of("SchedulingGates", "DynamicResources", "DefaultPreemption")),
          Map.entry("queueSort", List.of("PrioritySort")),
          Map.entry("placementScore", List.of("NodeResourcesFit:1")),
          Map.entry("podGroupPostFilter", List.of("DynamicResources", "DefaultPreemption")));

  static SchedulerConfiguration parse(String body) {
    return SchedulerConfiguration.parse(HEADER + body, "c.yaml");
  }

  static SchedulerProfile only(String body) {
    var profiles = parse(body).profiles();
    assertEquals(1, profiles.size());
    return profiles.get(0);
  }

  static List<String> filters(Policy policy) {
    return policy.filters().stream().map(Filter::name).toList();
  }

  static List<String> scorers(Policy policy) {
    return policy.scorers().stream().map(ws -> ws.scorer().name() + ":" + ws.weight()).toList();
  }

  static ConfigurationException error(String body) {
    return assertThrows(ConfigurationException.class, () -> parse(body));
  }

  @Test
  void aFileWithOnlyItsKindIsKubesDefaultProfile() {
    var configuration = SchedulerConfiguration.parse(HEADER, "c.yaml");

    var profile = configuration.profiles().get(0);
    assertEquals(1, configuration.profiles().size());
    assertEquals("default-scheduler", profile.schedulerName());
    assertEquals(KUBE_DEFAULT_PLUGINS, profile.enabledPlugins());
    var defaults = DefaultPolicy.create();
    assertEquals(filters(defaults), filters(profile.policy()));
    assertEquals(scorers(defaults), scorers(profile.policy()));
    assertEquals(defaults.preemption(), profile.policy().preemption());
    assertEquals(0, profile.policy().percentageOfNodesToScore());
    assertEquals(0, configuration.percentageOfNodesToScore());
    assertEquals(Duration.ofSeconds(1), configuration.podInitialBackoff());
    assertEquals(Duration.ofSeconds(10), configuration.podMaxBackoff());
    assertEquals(new ClientConnection(50, 100), configuration.clientConnection());
    assertEquals(LeaderElectionSettings.DEFAULT, configuration.leaderElection());
    assertEquals(new LeaderElectionSettings(true, Duration.ofSeconds(15), Duration.ofSeconds(10),
        Duration.ofSeconds(2), "leases", "kube-scheduler", "kube-system"), configuration.leaderElection());
    assertTrue(configuration.kubeconfig().isEmpty());
  }

  @Test
  void theEnabledPluginsKeepKubesOrderOfPointsAndCannotBeChanged() {
    var profile = only("");

    assertEquals(List.of("preFilter", "filter", "postFilter", "reserve", "preScore", "score", "preBind", "bind",
        "preEnqueue", "queueSort", "placementScore", "podGroupPostFilter"),
        List.copyOf(profile.enabledPlugins().keySet()));
    assertThrows(UnsupportedOperationException.class, () -> profile.enabledPlugins().get("filter").clear());
    assertThrows(UnsupportedOperationException.class, () -> profile.enabledPlugins().clear());
  }

  @Test
  void mostAllocatedWithADisabledScorerAndChangedWeights() {
    var profile = only("""
        profiles:
          - schedulerName: packing
            plugins:
              score:
                disabled: [{name: ImageLocality}, {name: NodeResourcesBalancedAllocation}]
                enabled: [{name: NodeResourcesFit, weight: 5}, {name: TaintToleration, weight: 1}]
            pluginConfig:
              - name: NodeResourcesFit
                args:
                  scoringStrategy:
                    type: MostAllocated
                    resources: [{name: cpu, weight: 3}, {name: memory}, {name: nvidia.com/gpu, weight: 0}]
        """);

    assertEquals("packing", profile.schedulerName());
    assertEquals(List.of("NodeResourcesFit:5", "TaintToleration:1", "NodeAffinity:2", "VolumeBinding:1",
        "PodTopologySpread:2", "InterPodAffinity:2", "DynamicResources:2"), profile.enabledPlugins().get("score"));
    assertEquals(List.of("NodeResourcesMostAllocated:5", "TaintToleration:1", "NodeAffinity:2", "VolumeBinding:1",
        "PodTopologySpread:2", "InterPodAffinity:2", "DynamicResources:2"), scorers(profile.policy()));
    var fit = assertInstanceOf(MostAllocatedScorer.class, profile.policy().scorers().get(0).scorer());
    assertEquals(List.of(new ScoredResource("cpu", 3), new ScoredResource("memory", 1),
        new ScoredResource("nvidia.com/gpu", 1)), fit.resources());
    // The scorer's preScore goes with it: kube disables only the score point.
    assertTrue(profile.enabledPlugins().get("preScore").contains("NodeResourcesBalancedAllocation"));
  }

  @Test
  void multiPointWithEverythingDisabledAndASmallSet() {
    var profile = only("""
        profiles:
          - plugins:
              multiPoint:
                disabled: [{name: "*"}]
                enabled:
                  - name: PrioritySort
                  - name: DefaultBinder
                  - name: NodeResourcesFit
                    weight: 4
                  - name: TaintToleration
                  - name: NodeName
        """);

    assertEquals(Map.of(
        "queueSort", List.of("PrioritySort"),
        "bind", List.of("DefaultBinder"),
        "preFilter", List.of("NodeResourcesFit", "TaintToleration", "NodeName"),
        "filter", List.of("NodeResourcesFit", "TaintToleration", "NodeName"),
        "preScore", List.of("NodeResourcesFit", "TaintToleration"),
        "score", List.of("NodeResourcesFit:4", "TaintToleration:1"),
        "placementScore", List.of("NodeResourcesFit:4")), profile.enabledPlugins());
    assertEquals(List.of("NodeResourcesFit", "TaintToleration", "NodeName"), filters(profile.policy()));
    assertEquals(List.of("NodeResourcesLeastAllocated:4", "TaintToleration:1"), scorers(profile.policy()));
    assertTrue(profile.policy().preemption().isEmpty(), "DefaultPreemption is not in the set");
  }

  @Test
  void twoProfilesAndTheirPercentages() {
    var configuration = parse("""
        percentageOfNodesToScore: 40
        profiles:
          - schedulerName: spread
          - schedulerName: pack
            percentageOfNodesToScore: 70
            plugins:
              postFilter:
                disabled: [{name: DefaultPreemption}]
        """);

    var profiles = configuration.profiles();
    assertEquals(List.of("spread", "pack"), profiles.stream().map(SchedulerProfile::schedulerName).toList());
    assertEquals(40, configuration.percentageOfNodesToScore());
    assertEquals(40, profiles.get(0).policy().percentageOfNodesToScore());
    assertEquals(70, profiles.get(1).policy().percentageOfNodesToScore());
    assertEquals(PreemptionArgs.DEFAULT, profiles.get(0).policy().preemption().orElseThrow());
    assertTrue(profiles.get(1).policy().preemption().isEmpty());
    assertEquals(List.of("DynamicResources"), profiles.get(1).enabledPlugins().get("postFilter"));
  }

  @Test
  void requestedToCapacityRatioTakesItsShapeAndResources() {
    var profile = only("""
        profiles:
          - pluginConfig:
              - name: NodeResourcesFit
                args:
                  scoringStrategy:
                    type: RequestedToCapacityRatio
                    resources: [{name: cpu, weight: 2}]
                    requestedToCapacityRatio:
                      shape: [{utilization: 0, score: 10}, {utilization: 100, score: 0}]
        """);

    var scorer = profile.policy().scorers().stream().map(WeightedScorer::scorer)
        .filter(RequestedToCapacityRatioScorer.class::isInstance).map(RequestedToCapacityRatioScorer.class::cast)
        .findFirst().orElseThrow();
    assertEquals(List.of(new ShapePoint(0, 10), new ShapePoint(100, 0)), scorer.shape());
    assertEquals(List.of(new ScoredResource("cpu", 2)), scorer.resources());
  }

  @Test
  void everySupportedPluginArgumentReachesItsPlugin() {
    var profile = only("""
        profiles:
          - pluginConfig:
              - name: InterPodAffinity
                args: {hardPodAffinityWeight: 7, ignorePreferredTermsOfExistingPods: true}
              - name: PodTopologySpread
                args:
                  defaultingType: List
                  defaultConstraints:
                    - {maxSkew: 2, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}
              - name: NodeAffinity
                args:
                  addedAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      nodeSelectorTerms:
                        - matchExpressions: [{key: pool, operator: In, values: [batch]}]
                    preferredDuringSchedulingIgnoredDuringExecution:
                      - weight: 5
                        preference:
                          matchFields: [{key: metadata.name, operator: NotIn, values: [node-a]}]
                      - weight: 0
                        preference:
                          matchExpressions: [{key: ignored, operator: Exists}]
              - name: DefaultPreemption
                args: {minCandidateNodesPercentage: 20, minCandidateNodesAbsolute: 3}
              - name: NodeResourcesBalancedAllocation
                args: {resources: [{name: cpu}, {name: example.com/foo, weight: 1}]}
              - name: VolumeBinding
                args: {bindTimeoutSeconds: 600, shape: [{utilization: 0, score: 0}, {utilization: 80, score: 10}]}
              - name: NodeResourcesFit
                args:
                  apiVersion: kubescheduler.config.k8s.io/v1
                  kind: NodeResourcesFitArgs
                  ignoredResources: [example.com/bar]
                  ignoredResourceGroups: [example.org]
        """);

    var policy = profile.policy();
    var interPod = scorer(policy, InterPodAffinityScorer.class);
    assertEquals(7, interPod.hardPodAffinityWeight());
    assertTrue(interPod.ignorePreferredTermsOfExistingPods());
    var zone = TopologySpreadConstraint.of(2, "topology.kubernetes.io/zone", WhenUnsatisfiable.DO_NOT_SCHEDULE, null);
    assertEquals(PodTopologySpreadArgs.list(List.of(zone)), filter(policy, PodTopologySpreadFilter.class).args());
    assertEquals(PodTopologySpreadArgs.list(List.of(zone)), scorer(policy, PodTopologySpreadScorer.class).args());
    assertEquals(List.of(new NodeSelectorTerm(List.of(NodeSelectorRequirement.of("pool",
            NodeSelectorRequirement.Operator.IN, "batch")), List.of())),
        filter(policy, NodeAffinityFilter.class).addedRequired());
    assertEquals(List.of(new PreferredSchedulingTerm(5, new NodeSelectorTerm(List.of(), List.of(
            NodeSelectorRequirement.of("metadata.name", NodeSelectorRequirement.Operator.NOT_IN, "node-a"))))),
        scorer(policy, NodeAffinityScorer.class).addedPreferred());
    assertEquals(new PreemptionArgs(20, 3), policy.preemption().orElseThrow());
    assertEquals(List.of(ScoredResource.of("cpu"), ScoredResource.of("example.com/foo")),
        scorer(policy, BalancedAllocationScorer.class).resources());
    assertEquals(List.of(new ShapePoint(0, 0), new ShapePoint(80, 10)),
        scorer(policy, VolumeBindingScorer.class).shape());
    var fit = filter(policy, NodeResourcesFitFilter.class);
    assertEquals(Set.of("example.com/bar"), fit.ignoredResources());
    assertEquals(Set.of("example.org"), fit.ignoredResourceGroups());
  }

  @Test
  void anAddedRequiredAffinityWithoutTermsSelectsNoNode() {
    var policy = only("""
        profiles:
          - pluginConfig:
              - name: NodeAffinity
                args: {addedAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}
        """).policy();

    var node = NodeInfo.builder("n").build();
    var pod = PodInfo.builder("default", "p").build();
    assertFalse(filter(policy, NodeAffinityFilter.class).filter(pod, node).fits());
  }

  static <T> T filter(Policy policy, Class<T> type) {
    return policy.filters().stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
  }

  static <T> T scorer(Policy policy, Class<T> type) {
    return policy.scorers().stream().map(WeightedScorer::scorer).filter(type::isInstance).map(type::cast)
        .findFirst().orElseThrow();
  }

  @Test
  void connectionLeaderElectionAndBackoff() {
    var configuration = parse("""
        clientConnection:
          {kubeconfig: /etc/kubernetes/scheduler.conf, qps: 25.5, burst: 40, contentType: application/json}
        leaderElection:
          leaderElect: true
          leaseDuration: 1m30s
          renewDeadline: 45s
          retryPeriod: 500ms
          resourceName: my-scheduler
          resourceNamespace: scheduling
        podInitialBackoffSeconds: 2
        podMaxBackoffSeconds: 30
        parallelism: 8
        enableProfiling: false
        """);

    assertEquals(new ClientConnection(25.5f, 40, ClientConnection.JSON, ""), configuration.clientConnection());
    assertEquals(Path.of("/etc/kubernetes/scheduler.conf"), configuration.kubeconfig().orElseThrow());
    assertEquals(new LeaderElectionSettings(true, Duration.ofSeconds(90), Duration.ofSeconds(45),
        Duration.ofMillis(500), "leases", "my-scheduler", "scheduling"), configuration.leaderElection());
    assertEquals(Duration.ofSeconds(2), configuration.podInitialBackoff());
    assertEquals(Duration.ofSeconds(30), configuration.podMaxBackoff());
    assertEquals(8, configuration.parallelism());
  }

  @Test
  void zeroesAndEmptiesTakeKubesDefaults() {
    var configuration = parse("""
        clientConnection: {qps: 0, burst: 0, kubeconfig: ""}
        leaderElection: {leaderElect: false, leaseDuration: 0s, resourceLock: "", resourceName: ""}
        """);

    assertEquals(ClientConnection.DEFAULT, configuration.clientConnection());
    assertTrue(configuration.kubeconfig().isEmpty());
    assertEquals(new LeaderElectionSettings(false, Duration.ofSeconds(15), Duration.ofSeconds(10),
        Duration.ofSeconds(2), "leases", "kube-scheduler", "kube-system"), configuration.leaderElection());
  }

  @Test
  void goDurations() {
    assertEquals(Duration.ofMinutes(90), ConfigReader.goDuration("1.5h"));
    assertEquals(Duration.ofMillis(2500), ConfigReader.goDuration("2s500ms"));
    assertEquals(Duration.ofNanos(-1500), ConfigReader.goDuration("-1.5us"));
    assertEquals(Duration.ZERO, ConfigReader.goDuration("0"));
    for (var malformed : List.of("", "15", "s", "1x", "1s ", "--1s", "1.s5")) {
      assertEquals(null, ConfigReader.goDuration(malformed), malformed);
    }
    assertEquals("1m30s", ConfigReader.goString(Duration.ofSeconds(90)));
    assertEquals("1h0m0s", ConfigReader.goString(Duration.ofHours(1)));
  }

  @Test
  void jsonWithTabsAndAFile(@TempDir Path dir) throws Exception {
    var json = "{\n\t\"apiVersion\": \"kubescheduler.config.k8s.io/v1\",\n\t\"kind\": \"KubeSchedulerConfiguration\","
        + "\n\t\"profiles\": [{\"schedulerName\": \"json\", \"plugins\": {\"score\": {\"enabled\": null}}}]\n}\n";
    var file = dir.resolve("scheduler.json");
    Files.writeString(file, json);

    assertEquals("json", SchedulerConfiguration.read(file).profiles().get(0).schedulerName());
    var missing = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.read(dir.resolve("none")));
    assertTrue(missing.getMessage().startsWith("KubeSchedulerConfiguration " + dir.resolve("none") + " cannot be read"),
        missing.getMessage());
  }

  @Test
  void aFileLargerThanAConfigurationIsRefusedUnreadAndSoIsAnEndlessOne(@TempDir Path dir) throws Exception {
    var large = dir.resolve("large.yaml");
    Files.writeString(large, "# " + "x".repeat(TreeReader.MAX_FILE_BYTES) + "\nprofiles: [{schedulerName: a}]\n");
    var fine = dir.resolve("fine.yaml");
    Files.writeString(fine, "# " + "x".repeat(TreeReader.MAX_FILE_BYTES - 200) + "\napiVersion: kubescheduler.config.k8s.io/v1\n"
        + "kind: KubeSchedulerConfiguration\nprofiles: [{schedulerName: a}]\n");

    var e = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.read(large));
    assertEquals("KubeSchedulerConfiguration " + large + " is larger than 1 MiB: not a configuration file", e.getMessage());
    assertEquals("a", SchedulerConfiguration.read(fine).profiles().get(0).schedulerName());
    var zero = Path.of("/dev/zero");
    if (Files.isReadable(zero)) {
      var endless = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.read(zero));
      assertTrue(endless.getMessage().endsWith("is larger than 1 MiB: not a configuration file"), endless.getMessage());
    }
  }

  @Test
  void loopPluginsAreAcceptedAndKubesUnsupportedDefaultsTolerated() {
    var profile = only("""
        profiles:
          - plugins:
              multiPoint:
                enabled: [{name: GangScheduling}]
              preEnqueue:
                disabled: [{name: DynamicResources}]
        """);

    assertEquals(List.of("SchedulingGates", "DefaultPreemption", "GangScheduling"),
        profile.enabledPlugins().get("preEnqueue"));
    assertEquals(List.of("GangScheduling"), profile.enabledPlugins().get("permit"));
    assertEquals(List.of("DynamicResources", "DefaultPreemption"), profile.enabledPlugins().get("postFilter"));
  }

  @Test
  void aProfileForTheCustomResource() {
    var profile = SchedulerConfiguration.parseProfile("""
        {"schedulerName": "pack", "percentageOfNodesToScore": 30,
         "plugins": {"score": {"enabled": [{"name": "NodeResourcesFit", "weight": 3}], "disabled": null}},
         "pluginConfig": [{"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "MostAllocated"}}}]}
        """, "SchedulingPolicy pack", "spec");

    assertEquals("pack", profile.schedulerName());
    assertEquals(30, profile.policy().percentageOfNodesToScore());
    assertEquals("NodeResourcesMostAllocated:3", scorers(profile.policy()).get(0));

    // Without its own percentage a profile takes the one it is given (a file's profile takes the file's).
    assertEquals(0, SchedulerConfiguration.parseProfile("{\"schedulerName\": \"a\"}", "SchedulingPolicy a", "spec")
        .policy().percentageOfNodesToScore());
    assertEquals(40, SchedulerConfiguration.parseProfile("{\"schedulerName\": \"a\"}", "SchedulingPolicy a", "spec", 40)
        .policy().percentageOfNodesToScore());
    assertEquals(30, SchedulerConfiguration.parseProfile("{\"schedulerName\": \"a\", \"percentageOfNodesToScore\": 30}",
        "SchedulingPolicy a", "spec", 40).policy().percentageOfNodesToScore());
    assertThrows(IllegalArgumentException.class,
        () -> SchedulerConfiguration.parseProfile("{\"schedulerName\": \"a\"}", "SchedulingPolicy a", "spec", 101));

    var noName = assertThrows(ConfigurationException.class,
        () -> SchedulerConfiguration.parseProfile("{\"plugins\": {}}", "SchedulingPolicy x", "spec"));
    assertEquals("SchedulingPolicy x: spec.schedulerName: Required value", noName.getMessage());
    var bad = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.parseProfile(
        "{\"schedulerName\": \"a\", \"pluginConfig\": [{\"name\": \"NodeResourcesFit\", \"args\": "
            + "{\"scoringStrategy\": {\"type\": \"Most\"}}}]}", "SchedulingPolicy x", "spec"));
    assertEquals("SchedulingPolicy x: spec.pluginConfig[0].args.scoringStrategy.type: Unsupported value: \"Most\": "
        + "supported values: \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\"", bad.getMessage());
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of("not YAML", "profiles: [", "KubeSchedulerConfiguration c.yaml is neither JSON nor YAML"),
        Arguments.of("unknown top-level field", "profile: []",
            "KubeSchedulerConfiguration c.yaml: profile is not a known field; valid: [apiVersion,"),
        Arguments.of("unknown nested field",
            "profiles: [{plugins: {score: {enabled: [{name: ImageLocality, wieght: 2}]}}}]",
            "c.yaml: profiles[0].plugins.score.enabled[0].wieght is not a known field; valid: [name, weight]"),
        Arguments.of("unknown extension point", "profiles: [{plugins: {scores: {}}}]",
            "profiles[0].plugins.scores is not a known field; valid: [bind, filter, multiPoint,"),
        Arguments.of("a field twice", "percentageOfNodesToScore: 5\npercentageOfNodesToScore: 6",
            "is neither JSON nor YAML: Duplicate Object property \"percentageOfNodesToScore\""),
        Arguments.of("a string for a number", "podMaxBackoffSeconds: ten",
            "c.yaml: podMaxBackoffSeconds must be an integer, was \"ten\""),
        Arguments.of("an unknown plugin", "profiles: [{plugins: {filter: {enabled: [{name: NodeLabel}]}}}]",
            "c.yaml: profiles[0].plugins.filter.enabled[0].name \"NodeLabel\" is not a plugin of kube-scheduler 1.37;"
                + " valid: [DefaultBinder, DefaultPreemption, DynamicResources, GangScheduling, ImageLocality,"
                + " InterPodAffinity,"),
        Arguments.of("an unknown plugin disabled",
            "profiles: [{plugins: {score: {disabled: [{name: NodeResourcesLeastAllocated}]}}}]",
            "profiles[0].plugins.score.disabled[0].name \"NodeResourcesLeastAllocated\" is not a plugin of"),
        Arguments.of("a removed plugin", "profiles: [{plugins: {filter: {enabled: [{name: EBSLimits}]}}}]",
            "c.yaml: profiles[0].plugins.filter.enabled[0]: Invalid value: \"EBSLimits\": was invalid in version"
                + " \"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is version"
                + " \"kubescheduler.config.k8s.io/v1\")"),
        Arguments.of("\"*\" enabled", "profiles: [{plugins: {filter: {enabled: [{name: \"*\"}]}}}]",
            "profiles[0].plugins.filter.enabled[0].name is \"*\", which only disables"),
        Arguments.of("an unsupported plugin enabled",
            "profiles: [{plugins: {multiPoint: {enabled: [{name: DeferredPodScheduling}]}}}]",
            "profiles[0].plugins.multiPoint.enabled[0].name enables DeferredPodScheduling, a kube-scheduler plugin"
                + " this scheduler does not support yet"),
        Arguments.of("an unsupported plugin configured",
            "profiles: [{pluginConfig: [{name: DeferredPodScheduling, args: {}}]}]",
            "profiles[0].pluginConfig[0].name configures DeferredPodScheduling, a kube-scheduler plugin this"
                + " scheduler does not support yet; plugins whose arguments are supported: [DefaultPreemption,"
                + " DynamicResources, InterPodAffinity,"),
        Arguments.of("DynamicResources' filterTimeout other than kube's default",
            "profiles: [{pluginConfig: [{name: DynamicResources, args: {filterTimeout: 5s}}]}]",
            "c.yaml: profiles[0].pluginConfig[0].args.filterTimeout is 5s: only kube's default 10s is supported"
                + " here"),
        Arguments.of("DynamicResources' unknown argument",
            "profiles: [{pluginConfig: [{name: DynamicResources, args: {timeout: 5s}}]}]",
            "profiles[0].pluginConfig[0].args"),
        Arguments.of("a plugin at a point it lacks", "profiles: [{plugins: {score: {enabled: [{name: NodePorts}]}}}]",
            "profiles[0].plugins.score.enabled[0]: plugin \"NodePorts\" does not extend ScorePlugin; it implements"
                + " [preFilter, filter]"),
        Arguments.of("a plugin twice at a point", "profiles: [{plugins: {filter: {disabled: [{name: \"*\"}], "
                + "enabled: [{name: NodeName}, {name: NodeName}]}}}]",
            "profiles[0].plugins.filter.enabled[1]: plugin \"NodeName\" is already registered as FilterPlugin"),
        Arguments.of("no bind plugin", "profiles: [{plugins: {bind: {disabled: [{name: DefaultBinder}]}}}]",
            "profiles[0].plugins.bind: at least one bind plugin is needed, but got 0 []; kube-scheduler's is"
                + " DefaultBinder"),
        Arguments.of("no queue sort plugin", "profiles: [{plugins: {multiPoint: {disabled: [{name: PrioritySort}]}}}]",
            "profiles[0].plugins.queueSort: only one queue sort plugin required, but got 0 []"),
        Arguments.of("a negative weight",
            "profiles: [{plugins: {score: {enabled: [{name: ImageLocality, weight: -1}]}}}]",
            "profiles[0].plugins.score.enabled[0].weight is -1: a weight must be 0 (meaning 1) or more"),
        Arguments.of("args for a plugin without arguments",
            "profiles: [{pluginConfig: [{name: NodeName, args: {x: 1}}]}]",
            "profiles[0].pluginConfig[0].args is given to NodeName, which takes no arguments"),
        Arguments.of("args of another kind", "profiles: [{pluginConfig: [{name: DefaultPreemption, args: {kind: "
                + "InterPodAffinityArgs}}]}]",
            "profiles[0].pluginConfig[0].args.kind must be DefaultPreemptionArgs for plugin DefaultPreemption, was"
                + " \"InterPodAffinityArgs\""),
        Arguments.of("an unknown argument",
            "profiles: [{pluginConfig: [{name: NodeResourcesFit, args: {scoringStrategy:"
                + " {type: MostAllocated, shape: []}}}]}]",
            "profiles[0].pluginConfig[0].args.scoringStrategy.shape is not a known field; valid: [requestedToCapacityRatio,"
                + " resources, type]"),
        Arguments.of("a bad scoring strategy",
            "profiles: [{schedulerName: a}, {schedulerName: b, pluginConfig: [{name: NodeResourcesFit,"
                + " args: {scoringStrategy: {type: Balanced}}}]}]",
            "c.yaml: profiles[1].pluginConfig[0].args.scoringStrategy.type: Unsupported value: \"Balanced\": supported"
                + " values: \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\""),
        Arguments.of("a bind timeout other than kube's", "profiles: [{pluginConfig: [{name: VolumeBinding, args:"
                + " {bindTimeoutSeconds: 30}}]}]",
            "profiles[0].pluginConfig[0].args.bindTimeoutSeconds is 30: only kube's default 600 is supported here"),
        Arguments.of("extenders", "extenders: [{urlPrefix: http://x}]",
            "c.yaml: extenders are not supported"),
        Arguments.of("delayCacheUntilActive", "delayCacheUntilActive: true",
            "c.yaml: delayCacheUntilActive is true, which is not supported"),
        Arguments.of("a negative qps", "clientConnection: {qps: -1}",
            "c.yaml: clientConnection.qps is -1.0: a negative qps (no client-side limit) is not supported"),
        Arguments.of("a qps no float holds", "clientConnection: {qps: 1e39}",
            "c.yaml: clientConnection.qps must be a finite 32-bit float (at most 3.4028235E38), was 1"),
        Arguments.of("a qps of 1e300", "clientConnection: {qps: 1e300}",
            "c.yaml: clientConnection.qps must be a finite 32-bit float"),
        Arguments.of("a qps that is not a number", "clientConnection: {qps: .nan}",
            "c.yaml: clientConnection.qps must be a finite 32-bit float"),
        Arguments.of("a malformed duration", "leaderElection: {leaseDuration: 15}",
            "c.yaml: leaderElection.leaseDuration must be a string, was 15"),
        Arguments.of("a duration without unit", "leaderElection: {leaseDuration: \"15\"}",
            "c.yaml: leaderElection.leaseDuration must be a duration such as \"15s\", \"1m30s\" or \"300ms\", was \"15\""),
        Arguments.of("backoff max below initial", "podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 4",
            "c.yaml: podMaxBackoffSeconds: Invalid value: 4: must be greater than or equal to PodInitialBackoffSeconds"),
        Arguments.of("backoff initial zero", "podInitialBackoffSeconds: 0",
            "c.yaml: podInitialBackoffSeconds: Invalid value: 0: must be greater than 0"),
        Arguments.of("a lease not longer than its renewal", "leaderElection: {leaseDuration: 10s, renewDeadline: 10s}",
            "c.yaml: leaderElection.leaseDuration: Invalid value: 10s: must be greater than `RenewDeadline`"),
        Arguments.of("a negative retry period", "leaderElection: {retryPeriod: -2s}",
            "c.yaml: leaderElection.retryPeriod: Invalid value: -2s: must be greater than zero"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void errors(String name, String body, String message) {
    var error = error(body);

    assertTrue(error.getMessage().contains(message), error.getMessage());
    assertTrue(error.getMessage().startsWith("KubeSchedulerConfiguration c.yaml"), error.getMessage());
  }

  @Test
  void kindAndVersionAreChecked() {
    var version = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.parse(
        "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n", "old.yaml"));
    assertEquals("KubeSchedulerConfiguration old.yaml: apiVersion is \"kubescheduler.config.k8s.io/v1beta3\";"
        + " kube-scheduler 1.37 reads apiVersion: kubescheduler.config.k8s.io/v1 only", version.getMessage());
    var kind = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.parse(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: Policy\n", "p.yaml"));
    assertEquals("KubeSchedulerConfiguration p.yaml: kind is \"Policy\"; kube-scheduler 1.37 reads kind:"
        + " KubeSchedulerConfiguration only", kind.getMessage());
    var none = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.parse("profiles: []", "c.yaml"));
    assertEquals("KubeSchedulerConfiguration c.yaml: apiVersion is required; kube-scheduler 1.37 reads apiVersion: "
        + "kubescheduler.config.k8s.io/v1", none.getMessage());
    var empty = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.parse("", "e.yaml"));
    assertTrue(empty.getMessage().startsWith("KubeSchedulerConfiguration e.yaml: (document) is empty"),
        empty.getMessage());
  }
}
