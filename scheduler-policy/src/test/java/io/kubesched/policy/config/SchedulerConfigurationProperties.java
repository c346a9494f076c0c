package io.kubesched.policy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.config.KubePlugins.Role;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.WeightedScorer;
import java.util.ArrayList;
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
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * Generated KubeSchedulerConfiguration profiles: random enabled and disabled sets, weights, and some invalid
 * entries (unknown, unsupported and repeated plugins, negative weights, no queue sort or bind plugin).
 */
class SchedulerConfigurationProperties {

  /** One {@code enabled} entry: a name and a weight (null for none). */
  record Entry(String name, @Nullable Integer weight) {
    String json() {
      var named = "{\"name\": \"" + name + "\"";
      return weight == null ? named + "}" : named + ", \"weight\": " + weight + "}";
    }
  }

  private static final List<String> USABLE =
      KubePlugins.names().stream().filter(n -> KubePlugins.get(n).orElseThrow().role() != Role.UNSUPPORTED).toList();
  private static final List<String> UNSUPPORTED = KubePlugins.names(Role.UNSUPPORTED);

  private static Arbitrary<@Nullable Integer> weights() {
    return Arbitraries.integers().between(0, 10).injectNull(0.4);
  }

  private static Arbitrary<Entry> usable() {
    return Combinators.combine(Arbitraries.of(USABLE), weights()).as(Entry::new);
  }

  /** A {@code multiPoint} list after {@code disabled: ["*"]}: mostly valid, sometimes broken in one way. */
  @Provide
  Arbitrary<List<Entry>> multiPointSets() {
    var base = usable().list().ofMaxSize(9).uniqueElements(Entry::name);
    return Combinators.combine(base, Arbitraries.integers().between(0, 11), Arbitraries.integers().between(0, 20))
        .as((entries, mutation, at) -> {
          var list = new ArrayList<>(entries);
          if (list.stream().noneMatch(e -> e.name().equals("PrioritySort")) && mutation != 6) {
            list.add(at % (list.size() + 1), new Entry("PrioritySort", null));
          }
          if (list.stream().noneMatch(e -> e.name().equals("DefaultBinder")) && mutation != 7) {
            list.add(at % (list.size() + 1), new Entry("DefaultBinder", null));
          }
          int where = at % (list.size() + 1);
          switch (mutation) {
            case 1 -> list.add(where, new Entry("NodeLabelPresence", null));
            case 2 -> list.add(where, new Entry(UNSUPPORTED.get(at % UNSUPPORTED.size()), 2));
            case 3 -> list.add(where, new Entry(list.get(at % list.size()).name(), -at - 1));
            case 4 -> list.add(where, list.get(at % list.size()));
            case 6 -> list.removeIf(e -> e.name().equals("PrioritySort"));
            case 7 -> list.removeIf(e -> e.name().equals("DefaultBinder"));
            default -> { }
          }
          return List.copyOf(list);
        });
  }

  private static String profile(String plugins) {
    return SchedulerConfigurationTest.HEADER
        + "profiles: [{\"schedulerName\": \"gen\", \"plugins\": " + plugins + "}]\n";
  }

  /** What kube-scheduler does with {@code multiPoint: {disabled: ["*"], enabled: entries}}, computed directly. */
  private static String expectedOutcome(List<Entry> entries) {
    for (var entry : entries) {
      if (entry.weight() != null && entry.weight() < 0) {
        return "negative weight";
      }
      var plugin = KubePlugins.get(entry.name());
      if (plugin.isEmpty()) {
        return "unknown plugin";
      }
      if (plugin.get().role() == Role.UNSUPPORTED) {
        return "unsupported plugin";
      }
    }
    if (entries.stream().map(Entry::name).distinct().count() < entries.size()) {
      return "repeated plugin";
    }
    if (entries.stream().noneMatch(e -> e.name().equals("PrioritySort"))) {
      return "no queue sort";
    }
    if (entries.stream().noneMatch(e -> e.name().equals("DefaultBinder"))) {
      return "no bind";
    }
    return "accepted";
  }

  private static final Map<String, String> MESSAGES = Map.of(
      "negative weight", "a weight must be 0 (meaning 1) or more",
      "unknown plugin", "is not a plugin of kube-scheduler 1.37",
      "unsupported plugin", "this scheduler does not support yet",
      "repeated plugin", "is already registered as",
      "no queue sort", "only one queue sort plugin required",
      "no bind", "at least one bind plugin is needed");

  @Property
  void a_multi_point_set_after_disabling_everything_runs_exactly_its_plugins_in_its_order(
      @ForAll("multiPointSets") List<Entry> entries) {
    var expected = expectedOutcome(entries);
    Statistics.label("outcome").collect(expected);
    Statistics.label("outcome").coverage(cov -> {
      cov.check("accepted").percentage(p -> p > 30);
      MESSAGES.keySet().forEach(outcome -> cov.check(outcome).count(n -> n > 0));
    });
    var text = profile("{\"multiPoint\": {\"disabled\": [{\"name\": \"*\"}], \"enabled\": ["
        + entries.stream().map(Entry::json).collect(Collectors.joining(", ")) + "]}}");

    SchedulerProfile profile;
    try {
      profile = SchedulerConfiguration.parse(text, "gen.yaml").profiles().get(0);
    } catch (ConfigurationException rejected) {
      assertTrue(rejected.getMessage().startsWith("KubeSchedulerConfiguration gen.yaml: profiles[0].plugins."),
          rejected.getMessage());
      assertTrue(rejected.getMessage().contains(MESSAGES.getOrDefault(expected, "(accepted)")),
          expected + ": " + rejected.getMessage());
      return;
    }
    assertEquals("accepted", expected);
    for (var point : ExtensionPoint.values()) {
      var want = entries.stream()
          .filter(e -> KubePlugins.pointsOf(e.name()).contains(point))
          .map(e -> point.weighted() ? e.name() + ":" + weightOrOne(e.weight()) : e.name())
          .toList();
      assertEquals(want, profile.enabledPlugins().getOrDefault(point.field(), List.of()), point.field());
    }
    assertPolicyFollowsThePlugins(profile);
  }

  /** Random sets at a few points and {@code multiPoint} over kube's defaults, some of them invalid. */
  @Provide
  Arbitrary<Map<String, List<List<Entry>>>> mergedSets() {
    var names = Arbitraries.frequencyOf(
        Tuple.of(30, Arbitraries.of(USABLE)),
        Tuple.of(1, Arbitraries.of(UNSUPPORTED)),
        Tuple.of(1, Arbitraries.of("*", "Coscheduling")));
    var entry = Combinators.combine(names, weights()).as(Entry::new);
    var set = Combinators.combine(entry.list().ofMaxSize(3), entry.list().ofMaxSize(3)).as(List::of);
    return Arbitraries.maps(Arbitraries.of("multiPoint", "preFilter", "filter", "score", "postFilter", "bind"), set)
        .ofMaxSize(4);
  }

  @Property
  void whatever_the_sets_the_profile_is_consistent_or_rejected_with_a_path(
      @ForAll("mergedSets") Map<String, List<List<Entry>>> sets) {
    var plugins = sets.entrySet().stream()
        .map(e -> "\"" + e.getKey() + "\": {\"enabled\": [" + json(e.getValue().get(0)) + "], \"disabled\": ["
            + json(e.getValue().get(1)) + "]}")
        .collect(Collectors.joining(", ", "{", "}"));

    SchedulerProfile profile;
    try {
      profile = SchedulerConfiguration.parse(profile(plugins), "gen.yaml").profiles().get(0);
      Statistics.label("outcome").collect("accepted");
    } catch (ConfigurationException rejected) {
      Statistics.label("outcome").collect("rejected");
      assertTrue(rejected.getMessage().startsWith("KubeSchedulerConfiguration gen.yaml: profiles[0].plugins."),
          rejected.getMessage());
      return;
    } finally {
      Statistics.label("outcome").coverage(cov -> {
        cov.check("accepted").percentage(p -> p > 10);
        cov.check("rejected").percentage(p -> p > 5);
      });
    }
    for (var point : ExtensionPoint.values()) {
      var listed = profile.enabledPlugins().getOrDefault(point.field(), List.of());
      var seen = new HashSet<String>();
      for (var plugin : listed) {
        var name = plugin.contains(":") ? plugin.substring(0, plugin.indexOf(':')) : plugin;
        assertTrue(KubePlugins.pointsOf(name).contains(point), name + " at " + point.field());
        assertTrue(seen.add(name), name + " twice at " + point.field());
        assertEquals(point.weighted(), plugin.contains(":"), plugin);
      }
    }
    assertEquals(1, profile.enabledPlugins().get("queueSort").size());
    assertTrue(!profile.enabledPlugins().get("bind").isEmpty());
    assertPolicyFollowsThePlugins(profile);
  }

  /** kube's weight of a score plugin: none or 0 is 1. */
  private static int weightOrOne(@Nullable Integer weight) {
    return weight == null || weight == 0 ? 1 : weight;
  }

  private static String json(List<Entry> entries) {
    return entries.stream().map(Entry::json).collect(Collectors.joining(", "));
  }

  /** The policy's filters and scorers are the library's plugins among the resolved ones, in order, weighted. */
  private static void assertPolicyFollowsThePlugins(SchedulerProfile profile) {
    var enabled = profile.enabledPlugins();
    var filters = enabled.getOrDefault("filter", List.of()).stream()
        .filter(n -> KubePlugins.get(n).orElseThrow().role() == Role.POLICY).toList();
    assertEquals(filters, profile.policy().filters().stream().map(Filter::name).toList());
    var scorers = enabled.getOrDefault("score", List.of()).stream()
        .filter(n -> KubePlugins.get(n.substring(0, n.indexOf(':'))).orElseThrow().role() == Role.POLICY)
        .map(n -> n.startsWith("NodeResourcesFit:") ? "NodeResourcesLeastAllocated" + n.substring(n.indexOf(':')) : n)
        .toList();
    assertEquals(scorers, profile.policy().scorers().stream()
        .map((WeightedScorer ws) -> ws.scorer().name() + ":" + ws.weight()).toList());
    assertEquals(enabled.getOrDefault("postFilter", List.of()).contains("DefaultPreemption"),
        profile.policy().preemption().isPresent());
  }
}
