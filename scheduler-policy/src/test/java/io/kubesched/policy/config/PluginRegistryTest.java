package io.kubesched.policy.config;

import static io.kubesched.policy.config.SchedulerConfigurationTest.HEADER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.Scorer;
import io.kubesched.policy.framework.WeightedScorer;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** A KubeSchedulerConfiguration read with a {@link PluginRegistry}: plugins of one's own enabled by name. */
class PluginRegistryTest {

  /** The arguments of {@link LabelFilter}: nodes whose {@code label} is {@code value} are refused. */
  record LabelArgs(@Nullable String label, @Nullable String value) {
    LabelArgs {
      label = label == null ? "example.com/draining" : label;
      value = value == null ? "true" : value;
      if (label.isEmpty()) {
        throw new IllegalArgumentException("label must not be empty");
      }
    }
  }

  /** The arguments of {@link LabelScorer}. */
  record ScoreArgs(String label, int score) {}

  /** Refuses nodes labelled as its arguments say. */
  record LabelFilter(LabelArgs args) implements Filter {
    @Override
    public String name() {
      return "something else";
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      return args.value().equals(node.labels().get(args.label()))
          ? FilterResult.unschedulable(Reason.of("node(s) were labelled " + args.label()))
          : FilterResult.fit();
    }
  }

  /** Scores nodes with its label {@code score}, others 0. */
  record LabelScorer(ScoreArgs args) implements Scorer {
    @Override
    public String name() {
      return "LabelScorer";
    }

    @Override
    public long score(PodInfo pod, NodeInfo node) {
      return node.labels().containsKey(args.label()) ? args.score() : 0;
    }
  }

  static final PluginRegistry PLUGINS = PluginRegistry.empty()
      .filter("AvoidLabel", LabelArgs.class, LabelFilter::new)
      .scorer("PreferLabel", ScoreArgs.class, LabelScorer::new);

  private static SchedulerConfiguration read(String profile) {
    return SchedulerConfiguration.parse(HEADER + "profiles:\n- schedulerName: custom\n" + profile, "c.yaml", PLUGINS);
  }

  private static Policy policy(String profile) {
    return read(profile).profiles().get(0).policy();
  }

  private static String error(String profile) {
    return assertThrows(ConfigurationException.class, () -> read(profile)).getMessage();
  }

  private static List<String> filterNames(Policy policy) {
    return policy.filters().stream().map(Filter::name).toList();
  }

  private static List<String> scorerNames(Policy policy) {
    return policy.scorers().stream().map(ws -> ws.scorer().name() + ":" + ws.weight()).toList();
  }

  @Test
  void a_registered_filter_and_scorer_are_enabled_by_name_after_kubes_with_their_arguments() {
    var policy = policy("""
          plugins:
            filter: {enabled: [{name: AvoidLabel}]}
            score: {enabled: [{name: PreferLabel, weight: 5}]}
          pluginConfig:
          - name: AvoidLabel
            args: {label: pool, value: draining}
          - name: PreferLabel
            args: {label: ssd, score: 70}
        """);
    var filters = filterNames(policy);
    assertEquals("AvoidLabel", filters.get(filters.size() - 1), "the registered name, after kube's: " + filters);
    assertTrue(filters.contains("NodeResourcesFit"), "kube's defaults stay: " + filters);
    var scorers = scorerNames(policy);
    assertEquals("PreferLabel:5", scorers.get(scorers.size() - 1), scorers.toString());

    var filter = policy.filters().get(filters.size() - 1);
    var pod = PodInfo.builder("ns", "p").build();
    var draining = NodeInfo.builder("a").labels(Map.of("pool", "draining")).build();
    var ready = NodeInfo.builder("b").labels(Map.of("pool", "ready", "ssd", "")).build();
    assertEquals(FilterResult.unschedulable(Reason.of("node(s) were labelled pool")), filter.filter(pod, draining));
    assertEquals(FilterResult.fit(), filter.filter(pod, ready));
    var scorer = policy.scorers().get(policy.scorers().size() - 1).scorer();
    assertEquals(70, scorer.score(pod, ready));
    assertEquals(0, scorer.score(pod, draining));
  }

  @Test
  void without_plugin_config_the_arguments_record_gives_its_defaults() {
    var policy = policy("  plugins: {multiPoint: {enabled: [{name: AvoidLabel}]}}\n");
    var filter = policy.filters().get(policy.filters().size() - 1);
    assertEquals("AvoidLabel", filter.name());
    var drained = NodeInfo.builder("a").labels(Map.of("example.com/draining", "true")).build();
    assertEquals(FilterResult.unschedulable(Reason.of("node(s) were labelled example.com/draining")),
        filter.filter(PodInfo.builder("ns", "p").build(), drained));
  }

  @Test
  void a_plugin_registered_as_filter_and_scorer_is_at_both_points_through_multi_point() {
    var both = PluginRegistry.empty()
        .filter("Both", ScoreArgs.class, args -> new LabelFilter(new LabelArgs(args.label(), "x")))
        .scorer("Both", ScoreArgs.class, LabelScorer::new);
    var profile = SchedulerConfiguration.parseProfile("""
        schedulerName: s
        plugins: {multiPoint: {enabled: [{name: Both, weight: 3}]}}
        pluginConfig: [{name: Both, args: {label: l, score: 9}}]
        """, "SchedulingPolicy s", "spec", 0, both);
    assertTrue(filterNames(profile.policy()).contains("Both"), filterNames(profile.policy()).toString());
    assertTrue(scorerNames(profile.policy()).contains("Both:3"), scorerNames(profile.policy()).toString());
    assertEquals(List.of("Both"), List.copyOf(both.names()));
    assertTrue(profile.enabledPlugins().get("score").contains("Both:3"), profile.enabledPlugins().toString());
  }

  @Test
  void a_disabled_registered_plugin_is_off_and_one_never_enabled_is_not_used() {
    var policy = policy("""
          plugins:
            multiPoint: {enabled: [{name: AvoidLabel}]}
            filter: {disabled: [{name: AvoidLabel}]}
          pluginConfig: [{name: PreferLabel, args: {label: ssd, score: 1}}]
        """);
    assertTrue(!filterNames(policy).contains("AvoidLabel"), filterNames(policy).toString());
    assertTrue(scorerNames(policy).stream().noneMatch(n -> n.startsWith("PreferLabel")), scorerNames(policy).toString());
  }

  @Test
  void an_unknown_name_is_refused_listing_kubes_and_the_registered_names() {
    var message = error("  plugins: {filter: {enabled: [{name: AvoidLabels}]}}\n");
    assertTrue(message.startsWith("KubeSchedulerConfiguration c.yaml: profiles[0].plugins.filter.enabled[0].name"
        + " \"AvoidLabels\" is not a plugin of kube-scheduler 1.37 nor a registered one; valid: ["), message);
    assertTrue(message.contains("NodeResourcesFit"), message);
    assertTrue(message.contains(", registered: [AvoidLabel, PreferLabel]"), message);
    var config = error("  pluginConfig: [{name: PreferLabels, args: {}}]\n");
    assertTrue(config.contains("pluginConfig[0].name \"PreferLabels\" is not a plugin"), config);
    assertTrue(config.contains("registered: [AvoidLabel, PreferLabel]"), config);
  }

  @Test
  void a_registered_plugin_at_a_point_it_does_not_implement_is_refused_as_kube_does() {
    var message = error("  plugins: {score: {enabled: [{name: AvoidLabel}]}}\n");
    assertEquals("KubeSchedulerConfiguration c.yaml: profiles[0].plugins.score.enabled[0]: plugin \"AvoidLabel\""
        + " does not extend ScorePlugin; it implements [filter]", message);
  }

  @Test
  void an_unknown_argument_field_is_refused_naming_it_and_the_valid_ones() {
    assertEquals("KubeSchedulerConfiguration c.yaml: profiles[0].pluginConfig[0].args.lable is not a known field"
            + " of AvoidLabel's arguments; valid: [label, value]",
        error("  pluginConfig: [{name: AvoidLabel, args: {lable: pool}}]\n"));
  }

  @Test
  void an_argument_of_the_wrong_type_is_refused_naming_its_path() {
    var text = error("  pluginConfig: [{name: PreferLabel, args: {label: ssd, score: \"70\"}}]\n");
    assertTrue(text.startsWith("KubeSchedulerConfiguration c.yaml: profiles[0].pluginConfig[0].args.score cannot be"
        + " read into PreferLabel's arguments: "), text);
    var fraction = error("  pluginConfig: [{name: PreferLabel, args: {label: ssd, score: 1.5}}]\n");
    assertTrue(fraction.contains("profiles[0].pluginConfig[0].args.score cannot be read"), fraction);
    var notObject = error("  pluginConfig: [{name: PreferLabel, args: [1]}]\n");
    assertEquals("KubeSchedulerConfiguration c.yaml: profiles[0].pluginConfig[0].args must be an object, was [1]",
        notObject);
  }

  @Test
  void arguments_the_record_refuses_are_refused_with_its_message() {
    assertEquals("KubeSchedulerConfiguration c.yaml: profiles[0].pluginConfig[0].args is invalid for AvoidLabel:"
            + " label must not be empty",
        error("  pluginConfig: [{name: AvoidLabel, args: {label: \"\"}}]\n"));
  }

  @Test
  void arguments_the_factory_refuses_are_refused_with_its_message_where_the_plugin_is_enabled() {
    var refusing = PluginRegistry.empty().scorer("Picky", ScoreArgs.class, args -> {
      if (args.score() > Scorer.MAX_SCORE) {
        throw new IllegalArgumentException("score must be at most 100, was " + args.score());
      }
      return new LabelScorer(args);
    });
    var message = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.parse(HEADER + """
        profiles:
        - plugins: {score: {enabled: [{name: Picky}]}}
          pluginConfig: [{name: Picky, args: {label: a, score: 101}}]
        """, "c.yaml", refusing)).getMessage();
    assertEquals("KubeSchedulerConfiguration c.yaml: profiles[0].pluginConfig[0].args is invalid for Picky: score"
        + " must be at most 100, was 101", message);
  }

  @Test
  void without_the_registry_a_registered_name_is_unknown() {
    var message = assertThrows(ConfigurationException.class, () -> SchedulerConfiguration.parse(
        HEADER + "profiles:\n- plugins: {filter: {enabled: [{name: AvoidLabel}]}}\n", "c.yaml")).getMessage();
    assertTrue(message.contains("\"AvoidLabel\" is not a plugin of kube-scheduler 1.37; valid: ["), message);
    assertTrue(!message.contains("registered"), message);
  }

  @Test
  void registration_refuses_kubes_names_bad_names_non_records_and_a_second_registration() {
    var kube = assertThrows(IllegalArgumentException.class,
        () -> PluginRegistry.empty().filter("NodeAffinity", LabelArgs.class, LabelFilter::new));
    assertEquals("cannot register the filter NodeAffinity: NodeAffinity is a kube-scheduler plugin's name, which"
        + " configuration files mean kube's plugin by; choose another", kube.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> PluginRegistry.empty().scorer("EBSLimits", ScoreArgs.class, LabelScorer::new));
    for (var bad : List.of("", " ", "*", "Two Words")) {
      assertThrows(IllegalArgumentException.class,
          () -> PluginRegistry.empty().filter(bad, LabelArgs.class, LabelFilter::new), bad);
    }
    @SuppressWarnings({"unchecked", "rawtypes"})
    Class<Record> notRecord = (Class) String.class;
    var type = assertThrows(IllegalArgumentException.class,
        () -> PluginRegistry.empty().filter("X", notRecord, args -> new LabelFilter(new LabelArgs(null, null))));
    assertEquals("the arguments type of the filter X must be a record, was java.lang.String", type.getMessage());
    var twice = assertThrows(IllegalArgumentException.class,
        () -> PLUGINS.filter("AvoidLabel", LabelArgs.class, LabelFilter::new));
    assertEquals("AvoidLabel is already registered as a filter", twice.getMessage());
    var otherArgs = assertThrows(IllegalArgumentException.class,
        () -> PLUGINS.scorer("AvoidLabel", ScoreArgs.class, LabelScorer::new));
    assertTrue(otherArgs.getMessage().contains("one plugin has one arguments type"), otherArgs.getMessage());
  }

  @Test
  void registering_returns_a_new_registry_and_leaves_the_receiver_unchanged() {
    var empty = PluginRegistry.empty();
    var one = empty.filter("A", LabelArgs.class, LabelFilter::new);
    assertTrue(empty.isEmpty());
    assertEquals(List.of("A"), List.copyOf(one.names()));
    assertEquals("PluginRegistry[A (filter, LabelArgs), PreferLabel (scorer, ScoreArgs)]",
        one.scorer("PreferLabel", ScoreArgs.class, LabelScorer::new).toString());
  }

  @Test
  void the_scorer_keeps_kubes_weights_beside_it() {
    var policy = policy("  plugins: {score: {enabled: [{name: PreferLabel, weight: 0}]}}\n"
        + "  pluginConfig: [{name: PreferLabel, args: {label: x, score: 2}}]\n");
    var weights = policy.scorers().stream().map(WeightedScorer::weight).toList();
    assertEquals(1, weights.get(weights.size() - 1), "a weight of 0 is 1, as kube's");
  }
}
