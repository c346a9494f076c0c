package io.kubesched.policy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Generated profiles that enable registered plugins beside kube's at the {@code filter} point and give their
 * {@code pluginConfig} arguments, valid or broken in one way (an unknown field, a value of the wrong type, a value the
 * record refuses), checked against what reading should do, worked out directly.
 */
class PluginRegistryProperties {

  /** The names the generator enables: a registered filter, a registered scorer, a kube filter, an unknown name. */
  private static final List<String> NAMES = List.of("AvoidLabel", "PreferLabel", "NodeName", "NoSuchPlugin");

  /** The {@code args} of AvoidLabel's pluginConfig entry, as written, and the fault it has. */
  record Args(String json, String fault, String label) {}

  /** A profile: the filter point's enabled names, and AvoidLabel's args (null: no pluginConfig entry). */
  record Profile(List<String> enabled, Args args) {
    String yaml() {
      var entries = enabled.stream().map(n -> "{name: " + n + "}").collect(Collectors.joining(", "));
      var config = args.json().isEmpty() ? "" : "  pluginConfig: [{name: AvoidLabel, args: " + args.json() + "}]\n";
      return SchedulerConfigurationTest.HEADER + "profiles:\n- schedulerName: gen\n"
          + "  plugins: {filter: {enabled: [" + entries + "]}}\n" + config;
    }
  }

  @Provide
  Arbitrary<Profile> profiles() {
    var label = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8);
    var args = Combinators.combine(Arbitraries.integers().between(0, 5), label).as((kind, name) -> switch (kind) {
      case 0 -> new Args("", "none", "example.com/draining");
      case 1 -> new Args("{label: " + name + "}", "valid", name);
      case 2 -> new Args("{label: " + name + ", " + name + "x: 1}", "unknown field", name);
      case 3 -> new Args("{label: " + name.length() + "}", "wrong type", name);
      case 4 -> new Args("{label: \"\"}", "refused", "");
      default -> new Args("{}", "valid", "example.com/draining");
    });
    return Combinators.combine(Arbitraries.of(NAMES).list().ofMaxSize(4), args).as(Profile::new);
  }

  /** What reading {@code profile} should end in: "accepted" or the first error kube's order finds. */
  private static String expected(Profile profile) {
    if (profile.enabled().contains("NoSuchPlugin")) {
      return "unknown plugin"; // the plugins are read before pluginConfig
    }
    switch (profile.args().fault()) {
      case "unknown field", "wrong type", "refused" -> {
        return profile.args().fault();
      }
      default -> { }
    }
    var seen = new HashSet<String>();
    for (var name : profile.enabled()) {
      if (name.equals("PreferLabel")) {
        return "not a filter";
      }
      if (!seen.add(name)) {
        return "repeated";
      }
    }
    return "accepted";
  }

  private static final Map<String, String> MESSAGES = Map.of(
      "unknown plugin", "\"NoSuchPlugin\" is not a plugin of kube-scheduler 1.37 nor a registered one; valid: [",
      "unknown field", "is not a known field of AvoidLabel's arguments; valid: [label, value]",
      "wrong type", "profiles[0].pluginConfig[0].args.label cannot be read into AvoidLabel's arguments",
      "refused", "profiles[0].pluginConfig[0].args is invalid for AvoidLabel: label must not be empty",
      "not a filter", "plugin \"PreferLabel\" does not extend FilterPlugin",
      "repeated", "is already registered as FilterPlugin");

  @Property
  void a_profile_with_registered_plugins_is_read_or_refused_as_the_model_says(@ForAll("profiles") Profile profile) {
    var expected = expected(profile);
    Statistics.label("outcome").collect(expected);
    Statistics.label("outcome").coverage(coverage -> {
      for (var outcome : MESSAGES.keySet()) {
        coverage.check(outcome).count(n -> n > 0);
      }
      coverage.check("accepted").percentage(p -> p > 5);
    });
    SchedulerConfiguration read;
    try {
      read = SchedulerConfiguration.parse(profile.yaml(), "gen.yaml", PluginRegistryTest.PLUGINS);
    } catch (ConfigurationException e) {
      var message = MESSAGES.get(expected);
      assertTrue(message != null && e.getMessage().contains(message),
          "expected " + expected + " for\n" + profile.yaml() + "got: " + e.getMessage());
      assertTrue(e.getMessage().startsWith("KubeSchedulerConfiguration gen.yaml: profiles[0]."), e.getMessage());
      return;
    }
    assertEquals("accepted", expected, "read without an error:\n" + profile.yaml());
    var filters = read.profiles().get(0).policy().filters();
    var custom = filters.stream().filter(f -> f.name().equals("AvoidLabel")).toList();
    assertEquals(profile.enabled().contains("AvoidLabel") ? 1 : 0, custom.size(), filters.stream().map(Filter::name)
        .toList().toString());
    if (!custom.isEmpty()) {
      assertEquals("AvoidLabel", filters.get(filters.size() - 1).name(), "a registered filter runs after kube's");
      var labelled = NodeInfo.builder("n").labels(Map.of(profile.args().label(), "true")).build();
      var pod = PodInfo.builder("ns", "p").build();
      assertTrue(custom.get(0).filter(pod, labelled) instanceof FilterResult.Rejected,
          "the filter refuses a node with its label " + profile.args().label());
      assertEquals(FilterResult.fit(), custom.get(0).filter(pod, NodeInfo.builder("m").build()));
    }
  }
}
