package io.kubesched.benchmark.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.Policy;
import io.kubesched.policy.config.SchedulerConfiguration;
import io.kubesched.policy.config.SchedulerProfile;
import io.kubesched.policy.plugins.Scorers;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The generated kube-scheduler profiles, read back by this library's reader of KubeSchedulerConfiguration files,
 * which resolves plugins as kube-scheduler 1.37.2 does (checked against the binary by the end-to-end suite's {@code
 * KubeSchedulerConfigParityIT}, and by the benchmark itself before it runs the same-plugins contestant).
 */
class KubeSchedulerConfigTest {

  private static final Path KUBECONFIG = Path.of("/tmp/admin.kubeconfig");

  /** kube's default plugins that DefaultPolicy does not implement: the only difference between the profiles. */
  private static final Set<String> NOT_IN_DEFAULT_POLICY = Set.of();

  private static SchedulerProfile read(KubeSchedulerConfig.Profile profile, boolean gangs) {
    var text =
        KubeSchedulerConfig.file(
            KUBECONFIG, 5000, 5000, "same-plugins-scheduler", profile,
            KubeSchedulerConfig.samePlugins(DefaultPolicy.create(), gangs));
    var profiles = SchedulerConfiguration.parse(text, "generated").profiles();
    assertEquals(1, profiles.size(), text);
    assertEquals("same-plugins-scheduler", profiles.get(0).schedulerName());
    return profiles.get(0);
  }

  private static Map<String, List<String>> without(Map<String, List<String>> plugins, Set<String> names) {
    var left = new LinkedHashMap<String, List<String>>();
    plugins.forEach((point, list) -> {
      var kept = list.stream().filter(p -> !names.contains(p.replaceFirst(":.*", ""))).toList();
      if (!kept.isEmpty()) {
        left.put(point, kept);
      }
    });
    return left;
  }

  private static Set<String> names(Map<String, List<String>> plugins) {
    var all = new TreeSet<String>();
    plugins.values().forEach(list -> list.forEach(p -> all.add(p.replaceFirst(":.*", ""))));
    return all;
  }

  @Test
  void the_same_plugins_profile_is_kubes_default_profile() {
    var kubeDefault = read(KubeSchedulerConfig.Profile.DEFAULT, false).enabledPlugins();
    var same = read(KubeSchedulerConfig.Profile.SAME_PLUGINS, false).enabledPlugins();

    assertEquals(without(kubeDefault, NOT_IN_DEFAULT_POLICY), same, "at every extension point, in order, with weights");
    var dropped = new TreeSet<>(names(kubeDefault));
    dropped.removeAll(names(same));
    assertEquals(new TreeSet<>(NOT_IN_DEFAULT_POLICY), dropped, "what kube's default profile runs besides");
    assertEquals(
        List.of(
            "TaintToleration:3", "NodeAffinity:2", "NodeResourcesFit:1", "VolumeBinding:1", "PodTopologySpread:2",
            "InterPodAffinity:2", "DynamicResources:2", "NodeResourcesBalancedAllocation:1", "ImageLocality:1"),
        same.get("score"));
  }

  @Test
  void the_same_plugins_profile_builds_the_filters_and_weighted_scorers_of_default_policy() {
    var generated = read(KubeSchedulerConfig.Profile.SAME_PLUGINS, false).policy();
    var expected = DefaultPolicy.create();

    assertEquals(
        expected.filters().stream().map(f -> f.name()).toList(),
        generated.filters().stream().map(f -> f.name()).toList());
    assertEquals(scorers(expected), scorers(generated));
    assertEquals(expected.preemption(), generated.preemption());
    assertEquals(expected.percentageOfNodesToScore(), generated.percentageOfNodesToScore());
  }

  private static List<String> scorers(Policy policy) {
    return policy.scorers().stream().map(s -> s.scorer().name() + ":" + s.weight()).toList();
  }

  @Test
  void the_file_disables_every_default_at_multi_point_and_lists_the_plugins_with_their_weights() {
    var text =
        KubeSchedulerConfig.file(
            KUBECONFIG, 5000, 5000, "same-plugins-scheduler", KubeSchedulerConfig.Profile.SAME_PLUGINS,
            List.of("PrioritySort", "TaintToleration:3", "DefaultBinder"));

    assertTrue(
        text.endsWith(
            """
              - schedulerName: same-plugins-scheduler
                plugins:
                  multiPoint:
                    disabled:
                      - name: "*"
                    enabled:
                      - name: PrioritySort
                      - name: TaintToleration
                        weight: 3
                      - name: DefaultBinder
            """),
        text);
    assertTrue(text.contains("  kubeconfig: /tmp/admin.kubeconfig\n  qps: 5000.0\n  burst: 5000\n"), text);
    assertTrue(text.contains("leaderElection:\n  leaderElect: false\n"), text);
  }

  @Test
  void the_default_profile_names_no_plugin() {
    var text =
        KubeSchedulerConfig.file(
            KUBECONFIG, 50, 100, "default-scheduler", KubeSchedulerConfig.Profile.DEFAULT, List.of("PrioritySort"));

    assertTrue(text.endsWith("profiles:\n  - schedulerName: default-scheduler\n"), text);
  }

  @Test
  void with_gangs_the_same_plugins_profile_adds_gang_scheduling_and_nothing_else() {
    var plain = KubeSchedulerConfig.samePlugins(DefaultPolicy.create(), false);
    var gangs = KubeSchedulerConfig.samePlugins(DefaultPolicy.create(), true);

    assertEquals("GangScheduling", gangs.get(gangs.size() - 1));
    assertEquals(plain, gangs.subList(0, gangs.size() - 1));
    assertTrue(names(read(KubeSchedulerConfig.Profile.SAME_PLUGINS, true).enabledPlugins()).contains("GangScheduling"));
  }

  @Test
  void without_preemption_the_profile_has_no_default_preemption() {
    var plugins = KubeSchedulerConfig.samePlugins(DefaultPolicy.builder().noPreemption().build(), false);

    assertTrue(plugins.stream().noneMatch(p -> p.equals("DefaultPreemption")), plugins.toString());
    assertTrue(KubeSchedulerConfig.samePlugins(DefaultPolicy.create(), false).contains("DefaultPreemption"));
  }

  @Test
  void a_scorer_kube_has_no_plugin_of_that_name_for_is_refused_naming_it() {
    var packing =
        DefaultPolicy.builder().removeScorer("NodeResourcesLeastAllocated")
            .scorer(Scorers.mostAllocated(), 1).build();

    var refused =
        assertThrows(IllegalArgumentException.class, () -> KubeSchedulerConfig.samePlugins(packing, false));

    assertTrue(refused.getMessage().contains("'NodeResourcesMostAllocated'"), refused.getMessage());
    assertTrue(refused.getMessage().contains("known: TaintToleration"), refused.getMessage());
  }

  @Test
  void weights_other_than_kubes_are_written_as_the_policy_has_them() {
    var reweighted = DefaultPolicy.builder().weight("ImageLocality", 7).build();

    var plugins = KubeSchedulerConfig.samePlugins(reweighted, false);

    assertTrue(plugins.contains("ImageLocality:7"), plugins.toString());
    assertTrue(KubeSchedulerConfig.samePlugins(DefaultPolicy.create(), false).contains("ImageLocality:1"));
  }
}
