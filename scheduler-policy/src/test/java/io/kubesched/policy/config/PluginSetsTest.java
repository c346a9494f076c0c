package io.kubesched.policy.config;

import static io.kubesched.policy.config.ExtensionPoint.BIND;
import static io.kubesched.policy.config.ExtensionPoint.FILTER;
import static io.kubesched.policy.config.ExtensionPoint.PERMIT;
import static io.kubesched.policy.config.ExtensionPoint.PLACEMENT_SCORE;
import static io.kubesched.policy.config.ExtensionPoint.PRE_ENQUEUE;
import static io.kubesched.policy.config.ExtensionPoint.PRE_SCORE;
import static io.kubesched.policy.config.ExtensionPoint.QUEUE_SORT;
import static io.kubesched.policy.config.ExtensionPoint.SCORE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.config.PluginSets.PluginRef;
import io.kubesched.policy.config.PluginSets.PluginSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code TestMergePlugins} ({@code default_plugins_test.go}) and {@code
 * TestNewFrameworkMultiPointExpansion} ({@code framework_test.go}), under their case names, with kube's test
 * plugins: {@code testPlugin} implements every extension point but {@code preEnqueue}.
 */
class PluginSetsTest {

  /** "Name" or "Name:weight". */
  private static PluginRef ref(String entry) {
    int colon = entry.indexOf(':');
    return colon < 0
        ? new PluginRef(entry, null, null)
        : new PluginRef(entry.substring(0, colon), Integer.valueOf(entry.substring(colon + 1)), null);
  }

  private static List<PluginRef> refs(String... entries) {
    return Arrays.stream(entries).map(PluginSetsTest::ref).toList();
  }

  private static PluginSet set(List<String> enabled, List<String> disabled) {
    return new PluginSet(refs(enabled.toArray(String[]::new)), refs(disabled.toArray(String[]::new)));
  }

  private static List<String> written(List<PluginRef> refs) {
    return refs.stream().map(r -> r.weight() == null ? r.name() : r.name() + ":" + r.weight()).toList();
  }

  static Stream<Arguments> mergePlugins() {
    return Stream.of(
        Arguments.of("AppendCustomPlugin",
            set(List.of("DefaultPlugin1", "DefaultPlugin2"), List.of()), set(List.of("CustomPlugin"), List.of()),
            List.of("DefaultPlugin1", "DefaultPlugin2", "CustomPlugin"), List.of()),
        Arguments.of("InsertAfterDefaultPlugins2",
            set(List.of("DefaultPlugin1", "DefaultPlugin2"), List.of()),
            set(List.of("CustomPlugin", "DefaultPlugin2"), List.of("DefaultPlugin2")),
            List.of("DefaultPlugin1", "CustomPlugin", "DefaultPlugin2"), List.of("DefaultPlugin2")),
        Arguments.of("InsertBeforeAllPlugins",
            set(List.of("DefaultPlugin1", "DefaultPlugin2"), List.of()),
            set(List.of("CustomPlugin", "DefaultPlugin1", "DefaultPlugin2"), List.of("*")),
            List.of("CustomPlugin", "DefaultPlugin1", "DefaultPlugin2"), List.of("*")),
        Arguments.of("ReorderDefaultPlugins",
            set(List.of("DefaultPlugin1", "DefaultPlugin2"), List.of()),
            set(List.of("DefaultPlugin2", "DefaultPlugin1"), List.of("*")),
            List.of("DefaultPlugin2", "DefaultPlugin1"), List.of("*")),
        Arguments.of("ApplyNilCustomPlugin",
            set(List.of("DefaultPlugin1", "DefaultPlugin2"), List.of()), PluginSet.EMPTY,
            List.of("DefaultPlugin1", "DefaultPlugin2"), List.of()),
        Arguments.of("CustomPluginOverrideDefaultPlugin",
            set(List.of("Plugin1", "Plugin2", "Plugin3"), List.of()), set(List.of("Plugin1:2", "Plugin3:3"), List.of()),
            List.of("Plugin1:2", "Plugin2", "Plugin3:3"), List.of()),
        Arguments.of("OrderPreserveAfterOverride",
            set(List.of("Plugin1", "Plugin2", "Plugin3"), List.of()), set(List.of("Plugin2:2", "Plugin1:1"), List.of()),
            List.of("Plugin1:1", "Plugin2:2", "Plugin3"), List.of()),
        Arguments.of("RepeatedCustomPlugin",
            set(List.of("Plugin1", "Plugin2", "Plugin3"), List.of()),
            set(List.of("Plugin1", "Plugin2:2", "Plugin3", "Plugin2:4"), List.of()),
            List.of("Plugin1", "Plugin2:4", "Plugin3", "Plugin2:2"), List.of()),
        Arguments.of("Append custom MultiPoint plugin",
            set(List.of("DefaultPlugin1", "DefaultPlugin2"), List.of()), set(List.of("CustomPlugin"), List.of()),
            List.of("DefaultPlugin1", "DefaultPlugin2", "CustomPlugin"), List.of()),
        Arguments.of("Append disabled Multipoint plugins",
            set(List.of("DefaultPlugin1", "DefaultPlugin2"), List.of()),
            set(List.of("CustomPlugin", "CustomPlugin2"), List.of("DefaultPlugin2")),
            List.of("DefaultPlugin1", "CustomPlugin", "CustomPlugin2"), List.of("DefaultPlugin2")),
        Arguments.of("override default MultiPoint plugins with custom value",
            set(List.of("DefaultPlugin"), List.of()), set(List.of("DefaultPlugin:5"), List.of()),
            List.of("DefaultPlugin:5"), List.of()),
        Arguments.of("disabled MultiPoint plugin in default set",
            set(List.of("DefaultPlugin"), List.of("DefaultPlugin2")), set(List.of("CustomPlugin"), List.of()),
            List.of("DefaultPlugin", "CustomPlugin"), List.of("DefaultPlugin2")),
        Arguments.of("multipoint with only disabled gets merged",
            set(List.of("DefaultPlugin"), List.of()), set(List.of(), List.of("DefaultPlugin")),
            List.of(), List.of("DefaultPlugin")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void mergePlugins(
      String name, PluginSet defaults, PluginSet custom, List<String> wantEnabled, List<String> wantDisabled) {
    var merged = PluginSets.merge(defaults, custom);

    assertEquals(wantEnabled, written(merged.enabled()));
    assertEquals(wantDisabled, written(merged.disabled()));
  }

  private static final String TEST_PLUGIN = "test-plugin";
  private static final String SCORE_PLUGIN_1 = "score-plugin-1";
  private static final String SCORE_PLUGIN_2 = "score-plugin-2";
  private static final String SCORE_WITH_NORMALIZE_PLUGIN_1 = "score-with-normalize-plugin-1";
  private static final String PLACEMENT_SCORE_PLUGIN_1 = "placement-score-plugin-1";
  private static final String QUEUE_SORT_PLUGIN = "no-op-queue-sort-plugin";
  private static final String BIND_PLUGIN = "bind-plugin";

  /** kube's test registry: what each test plugin implements. */
  private static @Nullable Set<ExtensionPoint> implemented(String name) {
    return switch (name) {
      case TEST_PLUGIN -> EnumSet.complementOf(EnumSet.of(PRE_ENQUEUE));
      case SCORE_PLUGIN_1, SCORE_PLUGIN_2 -> EnumSet.of(PRE_SCORE, SCORE);
      case SCORE_WITH_NORMALIZE_PLUGIN_1 -> EnumSet.of(SCORE);
      case PLACEMENT_SCORE_PLUGIN_1 -> EnumSet.of(PLACEMENT_SCORE);
      case QUEUE_SORT_PLUGIN -> EnumSet.of(QUEUE_SORT);
      case BIND_PLUGIN -> EnumSet.of(BIND);
      default -> null;
    };
  }

  /** What every point but {@code preEnqueue} gets from {@code testPlugin} alone, weights at the weighted ones. */
  private static Map<ExtensionPoint, List<String>> testPluginEverywhere(int weight) {
    Map<ExtensionPoint, List<String>> want = new EnumMap<>(ExtensionPoint.class);
    for (var point : EnumSet.complementOf(EnumSet.of(PRE_ENQUEUE))) {
      want.put(point, List.of(point.weighted() ? TEST_PLUGIN + ":" + weight : TEST_PLUGIN));
    }
    return want;
  }

  private static Map<ExtensionPoint, List<String>> with(
      Map<ExtensionPoint, List<String>> base, Object... pointsAndLists) {
    Map<ExtensionPoint, List<String>> want = new EnumMap<>(ExtensionPoint.class);
    want.putAll(base);
    for (int i = 0; i < pointsAndLists.length; i += 2) {
      @SuppressWarnings("unchecked")
      var plugins = (List<String>) pointsAndLists[i + 1];
      if (plugins.isEmpty()) {
        want.remove((ExtensionPoint) pointsAndLists[i]);
      } else {
        want.put((ExtensionPoint) pointsAndLists[i], plugins);
      }
    }
    return want;
  }

  /** Points and their sets: ExtensionPoint, enabled list, disabled list, ... */
  private static Map<ExtensionPoint, PluginSet> points(Object... pointsAndSets) {
    Map<ExtensionPoint, PluginSet> points = new EnumMap<>(ExtensionPoint.class);
    for (int i = 0; i < pointsAndSets.length; i += 3) {
      @SuppressWarnings("unchecked")
      var enabled = (List<String>) pointsAndSets[i + 1];
      @SuppressWarnings("unchecked")
      var disabled = (List<String>) pointsAndSets[i + 2];
      points.put((ExtensionPoint) pointsAndSets[i], set(enabled, disabled));
    }
    return points;
  }

  static Stream<Arguments> newFrameworkMultiPointExpansion() {
    var everywhere = testPluginEverywhere(1);
    return Stream.of(
        Arguments.of("plugin expansion",
            set(List.of(TEST_PLUGIN + ":5"), List.of()), points(), testPluginEverywhere(5)),
        Arguments.of("disable MultiPoint plugin at some extension points",
            set(List.of(TEST_PLUGIN), List.of()),
            points(PRE_SCORE, List.of(), List.of(TEST_PLUGIN), SCORE, List.of(), List.of(TEST_PLUGIN),
                PLACEMENT_SCORE, List.of(), List.of(TEST_PLUGIN)),
            with(everywhere, PRE_SCORE, List.of(), SCORE, List.of(), PLACEMENT_SCORE, List.of())),
        Arguments.of("Multiple MultiPoint plugins",
            set(List.of(TEST_PLUGIN, SCORE_PLUGIN_1, PLACEMENT_SCORE_PLUGIN_1), List.of()), points(),
            with(everywhere,
                PRE_SCORE, List.of(TEST_PLUGIN, SCORE_PLUGIN_1),
                SCORE, List.of(TEST_PLUGIN + ":1", SCORE_PLUGIN_1 + ":1"),
                PLACEMENT_SCORE, List.of(TEST_PLUGIN + ":1", PLACEMENT_SCORE_PLUGIN_1 + ":1"))),
        Arguments.of("disable MultiPoint extension",
            set(List.of(TEST_PLUGIN, SCORE_PLUGIN_1), List.of()), points(PRE_SCORE, List.of(), List.of("*")),
            with(everywhere, PRE_SCORE, List.of(), SCORE, List.of(TEST_PLUGIN + ":1", SCORE_PLUGIN_1 + ":1"))),
        Arguments.of("Reorder MultiPoint plugins (specified extension takes precedence)",
            set(List.of(SCORE_WITH_NORMALIZE_PLUGIN_1, TEST_PLUGIN, SCORE_PLUGIN_1), List.of()),
            points(SCORE, List.of(SCORE_PLUGIN_1, TEST_PLUGIN), List.of()),
            with(everywhere,
                PRE_SCORE, List.of(TEST_PLUGIN, SCORE_PLUGIN_1),
                SCORE, List.of(SCORE_PLUGIN_1 + ":1", TEST_PLUGIN + ":1", SCORE_WITH_NORMALIZE_PLUGIN_1 + ":1"))),
        Arguments.of(
            "Reorder MultiPoint plugins (specified extension only takes precedence when it exists in MultiPoint)",
            set(List.of(TEST_PLUGIN, SCORE_PLUGIN_1), List.of()),
            points(SCORE, List.of(SCORE_WITH_NORMALIZE_PLUGIN_1, SCORE_PLUGIN_1, TEST_PLUGIN), List.of()),
            with(everywhere,
                PRE_SCORE, List.of(TEST_PLUGIN, SCORE_PLUGIN_1),
                SCORE, List.of(SCORE_PLUGIN_1 + ":1", TEST_PLUGIN + ":1", SCORE_WITH_NORMALIZE_PLUGIN_1 + ":1"))),
        Arguments.of("Override MultiPoint plugins weights",
            set(List.of(TEST_PLUGIN, SCORE_PLUGIN_1), List.of()),
            points(SCORE, List.of(SCORE_PLUGIN_1 + ":5", TEST_PLUGIN + ":3"), List.of(),
                PLACEMENT_SCORE, List.of(TEST_PLUGIN + ":2"), List.of()),
            with(everywhere,
                PRE_SCORE, List.of(TEST_PLUGIN, SCORE_PLUGIN_1),
                SCORE, List.of(SCORE_PLUGIN_1 + ":5", TEST_PLUGIN + ":3"),
                PLACEMENT_SCORE, List.of(TEST_PLUGIN + ":2"))),
        Arguments.of("disable and enable MultiPoint plugins with '*'",
            set(List.of(QUEUE_SORT_PLUGIN, BIND_PLUGIN, SCORE_PLUGIN_1, PLACEMENT_SCORE_PLUGIN_1), List.of("*")),
            points(),
            with(Map.of(),
                QUEUE_SORT, List.of(QUEUE_SORT_PLUGIN),
                PRE_SCORE, List.of(SCORE_PLUGIN_1),
                SCORE, List.of(SCORE_PLUGIN_1 + ":1"),
                BIND, List.of(BIND_PLUGIN),
                PLACEMENT_SCORE, List.of(PLACEMENT_SCORE_PLUGIN_1 + ":1"))),
        Arguments.of("disable and enable MultiPoint plugin by name",
            set(List.of(BIND_PLUGIN, QUEUE_SORT_PLUGIN, SCORE_PLUGIN_1), List.of(SCORE_PLUGIN_1)),
            points(),
            with(Map.of(),
                QUEUE_SORT, List.of(QUEUE_SORT_PLUGIN),
                PRE_SCORE, List.of(SCORE_PLUGIN_1),
                SCORE, List.of(SCORE_PLUGIN_1 + ":1"),
                BIND, List.of(BIND_PLUGIN))),
        Arguments.of("Override MultiPoint plugins weights and avoid a plugin being loaded multiple times",
            set(List.of(TEST_PLUGIN, SCORE_PLUGIN_1, PLACEMENT_SCORE_PLUGIN_1), List.of()),
            points(SCORE, List.of(SCORE_PLUGIN_1 + ":5", SCORE_PLUGIN_2 + ":5", TEST_PLUGIN + ":3"), List.of(),
                PLACEMENT_SCORE, List.of(TEST_PLUGIN + ":2", PLACEMENT_SCORE_PLUGIN_1 + ":6"), List.of()),
            with(everywhere,
                PRE_SCORE, List.of(TEST_PLUGIN, SCORE_PLUGIN_1),
                SCORE, List.of(SCORE_PLUGIN_1 + ":5", TEST_PLUGIN + ":3", SCORE_PLUGIN_2 + ":5"),
                PLACEMENT_SCORE, List.of(TEST_PLUGIN + ":2", PLACEMENT_SCORE_PLUGIN_1 + ":6"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void newFrameworkMultiPointExpansion(
      String name,
      PluginSet multiPoint,
      Map<ExtensionPoint, PluginSet> points,
      Map<ExtensionPoint, List<String>> want) {
    var resolved = PluginSets.resolve(points, multiPoint, PluginSetsTest::implemented, new TreeReader(""), "plugins");

    Map<ExtensionPoint, List<String>> got = new LinkedHashMap<>();
    resolved.forEach((point, plugins) -> got.put(point, plugins.stream().map(Object::toString).toList()));
    assertEquals(new EnumMap<>(want), new EnumMap<>(got));
  }

  static Stream<Arguments> frameworkErrors() {
    return Stream.of(
        Arguments.of("Expect 'already registered' error",
            set(List.of(TEST_PLUGIN, TEST_PLUGIN), List.of()), points(),
            "plugins.multiPoint (kube's default): plugin \"test-plugin\" is already registered as PreFilterPlugin"),
        Arguments.of("a plugin enabled twice at one point",
            set(List.of(TEST_PLUGIN), List.of()), points(FILTER, List.of(TEST_PLUGIN, TEST_PLUGIN), List.of()),
            "plugin \"test-plugin\" is already registered as FilterPlugin"),
        Arguments.of("a plugin at a point it does not implement",
            set(List.of(TEST_PLUGIN), List.of()), points(FILTER, List.of(BIND_PLUGIN), List.of()),
            "plugin \"bind-plugin\" does not extend FilterPlugin; it implements [bind]"),
        Arguments.of("a plugin that does not exist",
            set(List.of(TEST_PLUGIN), List.of()), points(PERMIT, List.of("nope"), List.of()),
            "PermitPlugin \"nope\" does not exist"),
        Arguments.of("no queue sort plugin",
            set(List.of(BIND_PLUGIN), List.of()), points(),
            "plugins.queueSort: only one queue sort plugin required, but got 0 []"),
        Arguments.of("two queue sort plugins",
            set(List.of(TEST_PLUGIN, QUEUE_SORT_PLUGIN), List.of()), points(),
            "plugins.queueSort: only one queue sort plugin required, but got 2 [test-plugin, no-op-queue-sort-plugin]"),
        Arguments.of("no bind plugin",
            set(List.of(QUEUE_SORT_PLUGIN, SCORE_PLUGIN_1), List.of()), points(),
            "plugins.bind: at least one bind plugin is needed, but got 0 []"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void frameworkErrors(String name, PluginSet multiPoint, Map<ExtensionPoint, PluginSet> points, String message) {
    var error = assertThrows(ConfigurationException.class,
        () -> PluginSets.resolve(points, multiPoint, PluginSetsTest::implemented, new TreeReader(""), "plugins"));

    assertTrue(error.getMessage().contains(message), error.getMessage());
  }

  /** Unused points stay out of the result; the order of points is kube's. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("newFrameworkMultiPointExpansion")
  void pointsComeInKubesOrder(
      String name, PluginSet multiPoint, Map<ExtensionPoint, PluginSet> points, Map<ExtensionPoint, List<String>> want) {
    var resolved = PluginSets.resolve(points, multiPoint, PluginSetsTest::implemented, new TreeReader(""), "plugins");

    var order = new ArrayList<>(resolved.keySet());
    assertEquals(order.stream().sorted().toList(), order);
    assertTrue(resolved.values().stream().noneMatch(List::isEmpty));
  }
}
