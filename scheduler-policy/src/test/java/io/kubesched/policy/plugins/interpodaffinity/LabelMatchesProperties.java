package io.kubesched.policy.plugins.interpodaffinity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.plugins.helper.LabelMatches;
import io.kubesched.testkit.KubeArbitraries;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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
 * {@link LabelMatches} answers as its selector does, and {@link InterPodAffinityTerms.ExistingTermMatches} as
 * {@link InterPodAffinityTerms#matches(PodAffinityTerm, PodInfo, PodInfo, Map)} does, over walks that meet
 * shared instances again (answered from memory), equal values that are other instances (asked afresh) and more
 * distinct instances than they remember.
 */
class LabelMatchesProperties {

  /** The namespaces {@link KubeArbitraries#podAffinityTerms()} name. */
  private static final List<String> NAMESPACES = List.of("default", "team-a", "team-b");

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

  /** A term met in a walk: one of a few shared instances or a fresh copy, owned by a pod of a namespace. */
  record TermVisit(int shared, boolean fresh, String ownerNamespace) {}

  @Property
  void every_existing_term_answer_is_the_terms_own(
      @ForAll("terms") List<PodAffinityTerm> terms,
      @ForAll("walkedTerms") List<TermVisit> walk,
      @ForAll("namespaces") String namespace,
      @ForAll("labelSets") Map<String, String> labels,
      @ForAll("namespaceLabels") Map<String, String> namespaceLabels) {
    var target = PodInfo.builder(namespace, "incoming").labels(labels).build();
    var matches = new InterPodAffinityTerms.ExistingTermMatches(target, namespaceLabels);
    for (var visit : walk) {
      var shared = terms.get(visit.shared() % terms.size());
      var term = visit.fresh()
          ? new PodAffinityTerm(shared.labelSelector(), new HashSet<>(shared.namespaces()),
              shared.namespaceSelector(), shared.topologyKey(), shared.matchLabelKeys(), shared.mismatchLabelKeys())
          : shared;
      var owner = PodInfo.builder(visit.ownerNamespace(), "existing").build();
      boolean expected = InterPodAffinityTerms.matches(term, owner, target, namespaceLabels);
      Statistics.label("answer").collect(expected);
      Statistics.label("answer").coverage(cov -> {
        cov.check(true).count(n -> n > 0);
        cov.check(false).count(n -> n > 0);
      });
      assertEquals(expected, matches.test(term, owner), () -> term + " of a pod in " + owner.namespace());
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
  Arbitrary<List<PodAffinityTerm>> terms() {
    return KubeArbitraries.podAffinityTerms().list().ofMinSize(1).ofMaxSize(6);
  }

  @Provide
  Arbitrary<String> namespaces() {
    return Arbitraries.of(NAMESPACES);
  }

  @Provide
  Arbitrary<Map<String, String>> labelSets() {
    return Arbitraries.of(sharedMaps());
  }

  @Provide
  Arbitrary<Map<String, String>> namespaceLabels() {
    return Combinators.combine(Arbitraries.of("", "prod", "dev"), Arbitraries.of("", "a", "b"))
        .as((env, team) -> {
          var labels = new HashMap<String, String>();
          if (!env.isEmpty()) {
            labels.put("env", env);
          }
          if (!team.isEmpty()) {
            labels.put("team", team);
          }
          return Map.copyOf(labels);
        });
  }

  @Provide
  Arbitrary<List<TermVisit>> walkedTerms() {
    var visit =
        Combinators.combine(
                Arbitraries.integers().between(0, 5),
                Arbitraries.of(true, false).withoutEdgeCases(),
                Arbitraries.of(NAMESPACES))
            .as(TermVisit::new);
    return visit.list().ofMinSize(1).ofMaxSize(40);
  }

  @Provide
  Arbitrary<List<Visit>> walks() {
    var visit =
        Combinators.combine(Arbitraries.integers().between(0, 8), Arbitraries.of(true, false).withoutEdgeCases())
            .as(Visit::new);
    return visit.list().ofMinSize(1).ofMaxSize(40);
  }
}
