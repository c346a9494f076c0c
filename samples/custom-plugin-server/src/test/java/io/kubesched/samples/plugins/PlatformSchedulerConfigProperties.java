package io.kubesched.samples.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.config.SchedulerConfiguration;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Generated {@code pluginConfig} args of AvoidDrainingNodes, read as the server reads its configuration: the valid ones
 * make a filter with those arguments, each broken one is refused naming the field.
 */
class PlatformSchedulerConfigProperties {

  /** One written {@code args} object and what reading it should end in. */
  record Args(String yaml, String outcome, String label) {}

  @Provide
  Arbitrary<Args> args() {
    var label = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(10);
    return Combinators.combine(Arbitraries.integers().between(0, 6), label).as((kind, name) -> switch (kind) {
      case 0 -> new Args("{}", "accepted", DrainingArgs.DEFAULT_LABEL);
      case 1 -> new Args("{label: " + name + "}", "accepted", name);
      case 2 -> new Args("{label: " + name + ", values: [gone]}", "accepted", name);
      case 3 -> new Args("{label: " + name + ", " + name + "Typo: true}", "unknown field " + name + "Typo", name);
      case 4 -> new Args("{label: \" \"}", "label must not be empty", name);
      case 5 -> new Args("{values: []}", "values must name at least one non-empty value", name);
      default -> new Args("{values: " + name.length() + "}", "args.values cannot be read", name);
    });
  }

  @Property
  void args_are_read_into_the_record_or_refused_naming_the_field(@ForAll("args") Args args) {
    Statistics.label("outcome").collect(args.outcome().startsWith("unknown field") ? "unknown field" : args.outcome());
    var text = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
        + "- schedulerName: platform-scheduler\n  plugins: {filter: {enabled: [{name: AvoidDrainingNodes}]}}\n"
        + "  pluginConfig: [{name: AvoidDrainingNodes, args: " + args.yaml() + "}]\n";
    SchedulerConfiguration config;
    try {
      config = SchedulerConfiguration.parse(text, "gen.yaml", PlatformScheduler.server().plugins());
    } catch (ConfigurationException e) {
      var expected = args.outcome().startsWith("unknown field ")
          ? "args." + args.outcome().substring("unknown field ".length()) + " is not a known field"
          : args.outcome();
      assertTrue(!args.outcome().equals("accepted") && e.getMessage().contains(expected),
          "expected " + args.outcome() + ", got " + e.getMessage());
      assertTrue(e.getMessage().contains("profiles[0].pluginConfig[0].args"), e.getMessage());
      return;
    }
    assertEquals("accepted", args.outcome(), text);
    var filters = config.profiles().get(0).policy().filters();
    Filter filter = filters.get(filters.size() - 1);
    assertEquals(AvoidDrainingNodes.NAME, filter.name());
    var node = NodeInfo.builder("n").labels(Map.of(args.label(), args.yaml().contains("gone") ? "gone" : "draining"))
        .build();
    if (!(filter.filter(PodInfo.builder("ns", "p").build(), node) instanceof FilterResult.Rejected)) {
      fail(filter + " let a node labelled " + node.labels() + " in");
    }
  }
}
