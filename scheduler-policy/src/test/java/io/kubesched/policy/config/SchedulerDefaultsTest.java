package io.kubesched.policy.config;

import static io.kubesched.policy.config.SchedulerConfigurationTest.KUBE_DEFAULT_PLUGINS;
import static io.kubesched.policy.config.SchedulerConfigurationTest.only;
import static io.kubesched.policy.config.SchedulerConfigurationTest.parse;
import static io.kubesched.policy.config.SchedulerConfigurationTest.scorer;
import static io.kubesched.policy.config.SchedulerConfigurationTest.scorers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import io.kubesched.policy.PreemptionArgs;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import io.kubesched.policy.plugins.args.ScoredResource;
import io.kubesched.policy.plugins.args.ShapePoint;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityScorer;
import io.kubesched.policy.plugins.noderesources.BalancedAllocationScorer;
import io.kubesched.policy.plugins.noderesources.LeastAllocatedScorer;
import io.kubesched.policy.plugins.noderesources.MostAllocatedScorer;
import io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadScorer;
import io.kubesched.policy.plugins.volumebinding.VolumeBindingScorer;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's defaulting tables ({@code pkg/scheduler/apis/config/v1/defaults_test.go}: {@code TestSchedulerDefaults},
 * {@code TestPluginArgsDefaults}), under kube's case names, as this library reads the same input. Where kube's
 * case uses an out-of-tree plugin or a field this library refuses, the case says what happens here instead.
 */
class SchedulerDefaultsTest {

  /** kube's {@code SetDefaults_KubeSchedulerConfiguration} for everything but the profiles. */
  private static void assertTopLevelDefaults(SchedulerConfiguration configuration) {
    assertEquals(Duration.ofSeconds(1), configuration.podInitialBackoff());
    assertEquals(Duration.ofSeconds(10), configuration.podMaxBackoff());
    assertEquals(new ClientConnection(50, 100), configuration.clientConnection());
    assertEquals(LeaderElectionSettings.DEFAULT, configuration.leaderElection());
  }

  /** A profile with kube's default plugins and plugin arguments. */
  private static void assertDefaultProfile(SchedulerProfile profile, String name) {
    assertEquals(name, profile.schedulerName());
    assertEquals(KUBE_DEFAULT_PLUGINS, profile.enabledPlugins());
    assertEquals(scorers(DefaultPolicy.create()), scorers(profile.policy()));
    assertEquals(PreemptionArgs.DEFAULT, profile.policy().preemption().orElseThrow());
  }

  @Test
  @DisplayName("empty config")
  void emptyConfig() {
    var configuration = parse("");

    assertTopLevelDefaults(configuration);
    assertEquals(0, configuration.percentageOfNodesToScore());
    assertEquals(16, configuration.parallelism());
    assertEquals(1, configuration.profiles().size());
    assertDefaultProfile(configuration.profiles().get(0), "default-scheduler");
  }

  @Test
  @DisplayName("no scheduler name")
  void noSchedulerName() {
    var configuration = parse("profiles: [{}]");

    assertTopLevelDefaults(configuration);
    assertDefaultProfile(configuration.profiles().get(0), "default-scheduler");
  }

  /**
   * kube's case has an out-of-tree {@code FooPlugin} and {@code BarPlugin}, and a first profile without a name:
   * kube only names a file's only profile, so its validation then rejects it, and so does this reader. With names
   * and in-tree plugins, each profile gets kube's defaults for what it leaves out.
   */
  @Test
  @DisplayName("two profiles")
  void twoProfiles() {
    var unnamed = assertThrows(ConfigurationException.class, () -> parse("""
        profiles:
          - pluginConfig: [{name: DefaultPreemption}]
          - schedulerName: custom-scheduler
        """));
    assertEquals("KubeSchedulerConfiguration c.yaml: profiles[0].schedulerName: Required value", unnamed.getMessage());

    var configuration = parse("""
        parallelism: 16
        profiles:
          - schedulerName: default-scheduler
            pluginConfig: [{name: DefaultPreemption}]
          - schedulerName: custom-scheduler
            plugins:
              bind:
                enabled: [{name: DefaultBinder}]
                disabled: [{name: DefaultBinder}]
        """);

    assertTopLevelDefaults(configuration);
    assertDefaultProfile(configuration.profiles().get(0), "default-scheduler");
    var custom = configuration.profiles().get(1);
    assertEquals("custom-scheduler", custom.schedulerName());
    assertEquals(List.of("DefaultBinder"), custom.enabledPlugins().get("bind"));
    assertEquals(scorers(DefaultPolicy.create()), scorers(custom.policy()));
  }

  @Test
  @DisplayName("Prallelism with no port")
  void prallelismWithNoPort() {
    var configuration = parse("parallelism: 16");

    assertEquals(16, configuration.parallelism());
    assertTopLevelDefaults(configuration);
    assertDefaultProfile(configuration.profiles().get(0), "default-scheduler");
  }

  /** Read and kept: the server passes it to the controller's {@code Options.Builder#parallelism}. */
  @Test
  @DisplayName("set non default parallelism")
  void setNonDefaultParallelism() {
    var configuration = parse("parallelism: 8");

    assertEquals(8, configuration.parallelism());
    assertTopLevelDefaults(configuration);
    assertDefaultProfile(configuration.profiles().get(0), "default-scheduler");
  }

  /** kube defers its caches until elected; this scheduler fills them first, so it refuses the setting. */
  @Test
  @DisplayName("set non default delayCacheUntilActive")
  void setNonDefaultDelayCacheUntilActive() {
    var error = assertThrows(ConfigurationException.class, () -> parse("delayCacheUntilActive: true"));

    assertTrue(error.getMessage().startsWith(
        "KubeSchedulerConfiguration c.yaml: delayCacheUntilActive is true, which is not supported"), error.getMessage());
  }

  @Test
  @DisplayName("set non default global percentageOfNodesToScore")
  void setNonDefaultGlobalPercentageOfNodesToScore() {
    var configuration = parse("percentageOfNodesToScore: 50");

    assertEquals(50, configuration.percentageOfNodesToScore());
    assertEquals(50, configuration.profiles().get(0).policy().percentageOfNodesToScore());
  }

  @Test
  @DisplayName("set non default profile percentageOfNodesToScore")
  void setNonDefaultProfilePercentageOfNodesToScore() {
    var configuration = parse("profiles: [{percentageOfNodesToScore: 50}]");

    assertEquals(0, configuration.percentageOfNodesToScore());
    assertEquals(50, configuration.profiles().get(0).policy().percentageOfNodesToScore());
    assertEquals("default-scheduler", configuration.profiles().get(0).schedulerName());
  }

  @Test
  @DisplayName("set non default global and profile percentageOfNodesToScore")
  void setNonDefaultGlobalAndProfilePercentageOfNodesToScore() {
    var configuration = parse("percentageOfNodesToScore: 10\nprofiles: [{percentageOfNodesToScore: 50}]");

    assertEquals(10, configuration.percentageOfNodesToScore());
    assertEquals(50, configuration.profiles().get(0).policy().percentageOfNodesToScore());
  }

  /** kube keeps the arguments of a plugin it does not know; this reader names the plugin as unknown. */
  @Test
  @DisplayName("unknown plugin config")
  void unknownPluginConfig() {
    var error = assertThrows(ConfigurationException.class,
        () -> parse("profiles: [{pluginConfig: [{name: FooPlugin, args: {foo: bar}}]}]"));

    assertTrue(error.getMessage().startsWith("KubeSchedulerConfiguration c.yaml: profiles[0].pluginConfig[0].name"
        + " \"FooPlugin\" is not a plugin of kube-scheduler 1.37; valid: "), error.getMessage());
  }

  /**
   * DynamicResourceAllocation is GA and locked on in 1.37: kube's defaults have DynamicResources, and so do the
   * resolved profile and its policy, as a filter after InterPodAffinity and a scorer of weight 2.
   */
  @Test
  @DisplayName("default DynamicResources")
  void defaultDynamicResources() {
    var profile = only("");

    assertTrue(profile.enabledPlugins().get("filter").contains("DynamicResources"));
    assertTrue(profile.enabledPlugins().get("score").contains("DynamicResources:2"));
    var filters = profile.policy().filters().stream().map(f -> f.name()).toList();
    assertEquals(
        List.of("InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures"),
        filters.subList(filters.size() - 3, filters.size()), "kube appends NodeDeclaredFeatures after the rest");
    assertTrue(profile.policy().scorers().stream()
        .anyMatch(s -> s.scorer().name().equals("DynamicResources") && s.weight() == 2));
  }

  private static Policy withArgs(String plugin, String args) {
    return only("profiles: [{pluginConfig: [{name: " + plugin + ", args: " + args + "}]}]").policy();
  }

  static Stream<Arguments> pluginArgsDefaults() {
    return Stream.of(
        Arguments.of("DefaultPreemptionArgs empty", "DefaultPreemption", "{}",
            check(p -> assertEquals(new PreemptionArgs(10, 100), p.preemption().orElseThrow()))),
        Arguments.of("DefaultPreemptionArgs with value", "DefaultPreemption", "{minCandidateNodesPercentage: 50}",
            check(p -> assertEquals(new PreemptionArgs(50, 100), p.preemption().orElseThrow()))),
        Arguments.of("InterPodAffinityArgs empty", "InterPodAffinity", "{}",
            check(p -> assertEquals(1, scorer(p, InterPodAffinityScorer.class).hardPodAffinityWeight()))),
        Arguments.of("InterPodAffinityArgs explicit 0", "InterPodAffinity", "{hardPodAffinityWeight: 0}",
            check(p -> assertEquals(0, scorer(p, InterPodAffinityScorer.class).hardPodAffinityWeight()))),
        Arguments.of("InterPodAffinityArgs with value", "InterPodAffinity", "{hardPodAffinityWeight: 5}",
            check(p -> assertEquals(5, scorer(p, InterPodAffinityScorer.class).hardPodAffinityWeight()))),
        Arguments.of("NodeResourcesBalancedAllocationArgs resources empty", "NodeResourcesBalancedAllocation", "{}",
            check(p -> assertEquals(ScoredResource.defaults(), scorer(p, BalancedAllocationScorer.class).resources()))),
        Arguments.of("NodeResourcesBalancedAllocationArgs with scalar resource", "NodeResourcesBalancedAllocation",
            "{resources: [{name: scalar.io/scalar1, weight: 1}]}",
            check(p -> assertEquals(List.of(ScoredResource.of("scalar.io/scalar1")),
                scorer(p, BalancedAllocationScorer.class).resources()))),
        Arguments.of("NodeResourcesBalancedAllocationArgs with mixed resources", "NodeResourcesBalancedAllocation",
            "{resources: [{name: cpu, weight: 1}, {name: scalar.io/scalar1, weight: 1}]}",
            check(p -> assertEquals(List.of(ScoredResource.of("cpu"), ScoredResource.of("scalar.io/scalar1")),
                scorer(p, BalancedAllocationScorer.class).resources()))),
        Arguments.of("NodeResourcesBalancedAllocationArgs have resource no weight", "NodeResourcesBalancedAllocation",
            "{resources: [{name: cpu}, {name: scalar.io/scalar0}, {name: scalar.io/scalar1, weight: 1}]}",
            check(p -> assertEquals(List.of(ScoredResource.of("cpu"), ScoredResource.of("scalar.io/scalar0"),
                ScoredResource.of("scalar.io/scalar1")), scorer(p, BalancedAllocationScorer.class).resources()))),
        Arguments.of("PodTopologySpreadArgs resources empty", "PodTopologySpread", "{}",
            check(p -> assertEquals(PodTopologySpreadArgs.SYSTEM, scorer(p, PodTopologySpreadScorer.class).args()))),
        Arguments.of("NodeResourcesFitArgs not set", "NodeResourcesFit", "{}",
            check(p -> assertEquals(ScoredResource.defaults(), scorer(p, LeastAllocatedScorer.class).resources()))),
        Arguments.of("NodeResourcesFitArgs Resources empty", "NodeResourcesFit",
            "{scoringStrategy: {type: MostAllocated}}",
            check(p -> assertEquals(ScoredResource.defaults(), scorer(p, MostAllocatedScorer.class).resources()))),
        Arguments.of("VolumeBindingArgs empty, StorageCapacityScoring enabled", "VolumeBinding", "{}",
            check(p -> assertEquals(List.of(new ShapePoint(0, 10), new ShapePoint(100, 0)),
                scorer(p, VolumeBindingScorer.class).shape()))));
  }

  private static Consumer<Policy> check(Consumer<Policy> check) {
    return check;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void pluginArgsDefaults(String name, String plugin, String args, Consumer<Policy> check) {
    check.accept(withArgs(plugin, args));
  }

  /**
   * kube defaults {@code defaultingType} to System even when constraints are listed; its validation then rejects
   * them, and so does this reader, with kube's message.
   */
  @Test
  @DisplayName("PodTopologySpreadArgs resources with value")
  void podTopologySpreadArgsResourcesWithValue() {
    var error = assertThrows(ConfigurationException.class, () -> withArgs("PodTopologySpread",
        "{defaultConstraints: [{topologyKey: planet, whenUnsatisfiable: DoNotSchedule, maxSkew: 2}]}"));

    assertEquals("KubeSchedulerConfiguration c.yaml: profiles[0].pluginConfig[0].args.defaultingType: Invalid value:"
        + " \"System\": when .defaultConstraints are not empty", error.getMessage());
  }

  @Test
  void theDefaultFitScorerIsLeastAllocated() {
    assertInstanceOf(LeastAllocatedScorer.class, only("").policy().scorers().get(2).scorer());
  }
}
