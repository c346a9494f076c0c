package io.kubesched.policy.plugins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.LabelSelector;
import io.kubesched.testkit.KubeArbitraries;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * {@link LabelMatches} answers as its selector does, over walks that meet shared maps again (answered from
 * memory), equal maps that are other instances (matched afresh) and more distinct maps than it remembers.
 */
class LabelMatchesProperties {

  /** A map met in a walk: one of a few shared instances, or a fresh copy of one. */
  record Visit(int shared, boolean fresh) {}

  @Property
  void every_answer_is_the_selectors_own(
      @ForAll("selectors") @Nullable LabelSelector selector, @ForAll("walks") List<Visit> walk) {
    var shared = sharedMaps();
    var matches = new LabelMatches(selector);
    for (var visit : walk) {
      var labels = visit.fresh() ? Map.copyOf(new HashMap<>(shared.get(visit.shared()))) : shared.get(visit.shared());
      boolean expected = selector != null && selector.matches(labels);
      Statistics.label("answer").collect(expected);
      Statistics.label("answer").coverage(cov -> {
        cov.check(true).count(n -> n > 0);
        cov.check(false).count(n -> n > 0);
      });
      assertEquals(expected, matches.test(labels), () -> selector + " on " + labels);
    }
  }

  /** Nine maps over the labels {@link KubeArbitraries#labelSelectors()} selects on, more than four. */
  private static List<Map<String, String>> sharedMaps() {
    var maps = new ArrayList<Map<String, String>>();
    for (var app : List.of("", "web", "db")) {
      for (var tier : List.of("", "web", "db")) {
        var labels = new HashMap<String, String>();
        if (!app.isEmpty()) {
          labels.put(KubeArbitraries.LABEL_APP, app);
        }
        if (!tier.isEmpty()) {
          labels.put(KubeArbitraries.LABEL_TIER, tier);
        }
        maps.add(Map.copyOf(labels));
      }
    }
    return maps;
  }

  @Provide
  Arbitrary<@Nullable LabelSelector> selectors() {
    return KubeArbitraries.labelSelectorsOrNull();
  }

  @Provide
  Arbitrary<List<Visit>> walks() {
    var visit =
        Combinators.combine(Arbitraries.integers().between(0, 8), Arbitraries.of(true, false).withoutEdgeCases())
            .as(Visit::new);
    return visit.list().ofMinSize(1).ofMaxSize(40);
  }
}
