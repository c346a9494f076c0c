package io.kubesched.policy.plugins.volumezone;

import static io.kubesched.policy.plugins.FilterFixtures.assertOutcome;
import static io.kubesched.policy.plugins.volumezone.VolumeZoneFilter.LABEL_BETA_REGION;
import static io.kubesched.policy.plugins.volumezone.VolumeZoneFilter.LABEL_BETA_ZONE;
import static io.kubesched.policy.plugins.volumezone.VolumeZoneFilter.LABEL_REGION;
import static io.kubesched.policy.plugins.volumezone.VolumeZoneFilter.LABEL_ZONE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Storage;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import io.kubesched.policy.plugins.StorageFixtures;
import io.kubesched.policy.plugins.helper.PodVolumeClaims;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link VolumeZoneFilter} against a reference written from kube's description of the plugin, over claims of
 * every state, volumes with zone labels (multi-zone, padded and malformed values among them) and nodes with
 * and without zone labels.
 */
class VolumeZoneFilterProperties {

  private static final List<String> KEYS = List.of(LABEL_BETA_ZONE, LABEL_BETA_REGION, LABEL_ZONE, LABEL_REGION);
  private static final List<String> CLAIMS = List.of("c1", "c2", "c3");

  private final VolumeZoneFilter plugin = new VolumeZoneFilter();

  /** What the storage holds for one claim name. */
  enum Kind {
    ABSENT,
    BOUND,
    BOUND_TO_MISSING_VOLUME,
    UNBOUND_WITHOUT_CLASS,
    UNBOUND_WAIT,
    UNBOUND_IMMEDIATE,
    UNBOUND_MISSING_CLASS
  }

  /** One claim name's state and, when bound, its volume's labels. */
  record ClaimCase(Kind kind, Map<String, String> volumeLabels) {}

  /**
   * @param cases per claim name, its state
   * @param podClaims the claims the pod's {@code persistentVolumeClaim} volumes name, in order
   * @param ephemeral whether the pod also has a generic ephemeral volume, whose claim does not exist (yet)
   * @param nodeLabels the node's labels
   */
  record Scenario(
      Map<String, ClaimCase> cases, List<String> podClaims, boolean ephemeral, Map<String, String> nodeLabels) {

    PodInfo pod() {
      var all = new ArrayList<>(podClaims);
      if (ephemeral) {
        all.add(0, "p-scratch");
      }
      return PodInfo.builder("default", "p")
          .persistentVolumeClaims(all)
          .ephemeralVolumeClaims(ephemeral ? List.of("p-scratch") : List.of())
          .build();
    }

    Storage storage() {
      var claims = new ArrayList<PersistentVolumeClaim>();
      var volumes = new ArrayList<PersistentVolume>();
      cases.forEach((name, c) -> {
        switch (c.kind()) {
          case ABSENT -> {}
          case BOUND -> {
            claims.add(StorageFixtures.claim(name, "v-" + name));
            volumes.add(StorageFixtures.volume("v-" + name, c.volumeLabels()));
          }
          case BOUND_TO_MISSING_VOLUME -> claims.add(StorageFixtures.claim(name, "v-" + name));
          case UNBOUND_WITHOUT_CLASS -> claims.add(StorageFixtures.unboundClaim(name, ""));
          case UNBOUND_WAIT -> claims.add(StorageFixtures.unboundClaim(name, "wait"));
          case UNBOUND_IMMEDIATE -> claims.add(StorageFixtures.unboundClaim(name, "immediate"));
          case UNBOUND_MISSING_CLASS -> claims.add(StorageFixtures.unboundClaim(name, "missing"));
        }
      });
      // A claim of the same name in another namespace must not be found.
      claims.add(StorageFixtures.claim("other", "c1", "", "v-other", java.util.Set.of()));
      return StorageFixtures.storage(
          claims,
          volumes,
          List.of(StorageFixtures.storageClass("wait", true), StorageFixtures.storageClass("immediate", false)));
    }

    NodeInfo node() {
      return FilterFixtures.node("n").labels(nodeLabels).build();
    }
  }

  @Property
  @Label("the verdict is the reference's: claims, classes and volumes looked up in order, then zone labels")
  void verdictMatchesReference(@ForAll("scenarios") Scenario scenario) {
    var pod = scenario.pod();
    var node = scenario.node();
    var prepared = plugin.prepare(pod, StorageFixtures.snapshot(scenario.storage(), node));

    var expected = reference(scenario);

    assertOutcome(expected.outcome(), prepared.filter(pod, node));
    if (expected.everyNode()) {
      assertOutcome(expected.outcome(), prepared.filter(pod, FilterFixtures.node("bare").build()));
    }
    Statistics.label("verdict").collect(expected.category());
    Statistics.label("verdict")
        .coverage(
            c -> {
              for (var category : List.of(
                  "fit: node without zone labels",
                  "fit: nothing to match",
                  "fit: zones matched",
                  "zone conflict",
                  "claim not found",
                  "volume not found",
                  "class not found",
                  "unbound without class",
                  "unbound immediate")) {
                c.check(category).count(n -> n > 0);
              }
            });
  }

  @Property
  @Label("a node fits iff it fits each of the pod's claims alone (claims are independent)")
  void claimsAreIndependent(@ForAll("scenarios") Scenario scenario) {
    var pod = scenario.pod();
    var node = scenario.node();
    var storage = scenario.storage();
    boolean fits = plugin.prepare(pod, StorageFixtures.snapshot(storage, node)).filter(pod, node).fits();

    boolean each = true;
    for (var claim : PodVolumeClaims.direct(pod)) {
      var alone = PodInfo.builder("default", "p").persistentVolumeClaims(List.of(claim)).build();
      each &= plugin.prepare(alone, StorageFixtures.snapshot(storage, node)).filter(alone, node).fits();
    }
    assertEquals(each, fits);
  }

  // ---------------------------------------------------------------- the reference

  record Expected(String category, Outcome outcome, boolean everyNode) {}

  /** kube's plugin restated: what it says of the scenario's pod on the scenario's node. */
  static Expected reference(Scenario s) {
    var direct = s.podClaims();
    var constraints = new ArrayList<Map.Entry<String, List<String>>>();
    for (var name : direct) {
      var c = s.cases().get(name);
      switch (c.kind()) {
        case ABSENT:
          return everyNode("claim not found", "persistentvolumeclaim \"" + name + "\" not found");
        case BOUND_TO_MISSING_VOLUME:
          return everyNode("volume not found", "persistentvolume \"v-" + name + "\" not found");
        case UNBOUND_WITHOUT_CLASS:
          return everyNode("unbound without class", "PersistentVolumeClaim had no pv name and storageClass name");
        case UNBOUND_MISSING_CLASS:
          return everyNode("class not found", "storageclass.storage.k8s.io \"missing\" not found");
        case UNBOUND_IMMEDIATE:
          return everyNode("unbound immediate", "PersistentVolume had no name");
        case UNBOUND_WAIT:
          break;
        case BOUND:
          for (var key : KEYS) {
            var value = c.volumeLabels().get(key);
            if (value != null) {
              var zones = Arrays.stream(value.split("__", -1)).map(String::strip).toList();
              if (zones.stream().noneMatch(String::isEmpty)) {
                constraints.add(Map.entry(key, zones));
              }
            }
          }
          break;
      }
    }
    if (KEYS.stream().noneMatch(s.nodeLabels()::containsKey)) {
      return new Expected("fit: node without zone labels", Outcome.FIT, false);
    }
    if (constraints.isEmpty()) {
      return new Expected("fit: nothing to match", Outcome.FIT, false);
    }
    for (var constraint : constraints) {
      var key = constraint.getKey();
      var successor = key.replace("failure-domain.beta.kubernetes.io/", "topology.kubernetes.io/");
      var value = Optional.ofNullable(s.nodeLabels().get(key))
          .or(() -> Optional.ofNullable(s.nodeLabels().get(successor)));
      if (value.isEmpty() || !constraint.getValue().contains(value.get())) {
        return new Expected("zone conflict", Outcome.unresolvable("node(s) had no available volume zone"), false);
      }
    }
    return new Expected("fit: zones matched", Outcome.FIT, false);
  }

  private static Expected everyNode(String category, String message) {
    return new Expected(category, Outcome.unresolvable(message), true);
  }

  // ---------------------------------------------------------------- generators

  @Provide
  Arbitrary<Scenario> scenarios() {
    var keys = Arbitraries.of(LABEL_BETA_ZONE, LABEL_BETA_REGION, LABEL_ZONE, LABEL_REGION, "other");
    var volumeLabels = Arbitraries.maps(keys, Arbitraries.of("a", "b", "a__b", " b ", "a____b", "c"))
        .ofMaxSize(2);
    Arbitrary<Kind> kinds = Arbitraries.frequencyOf(
        Tuple.of(12, Arbitraries.just(Kind.BOUND)),
        Tuple.of(2, Arbitraries.just(Kind.UNBOUND_WAIT)),
        Tuple.of(1, Arbitraries.just(Kind.ABSENT)),
        Tuple.of(1, Arbitraries.just(Kind.BOUND_TO_MISSING_VOLUME)),
        Tuple.of(1, Arbitraries.just(Kind.UNBOUND_WITHOUT_CLASS)),
        Tuple.of(1, Arbitraries.just(Kind.UNBOUND_IMMEDIATE)),
        Tuple.of(1, Arbitraries.just(Kind.UNBOUND_MISSING_CLASS)));
    var cases = Combinators.combine(kinds, volumeLabels).as(ClaimCase::new).list().ofSize(CLAIMS.size())
        .map(list -> {
          var byName = new LinkedHashMap<String, ClaimCase>();
          for (int i = 0; i < CLAIMS.size(); i++) {
            byName.put(CLAIMS.get(i), list.get(i));
          }
          return (Map<String, ClaimCase>) byName;
        });
    var podClaims = Arbitraries.of(CLAIMS).list().ofMaxSize(3);
    var nodeLabels = Arbitraries.maps(keys, Arbitraries.of("a", "b", "c")).ofMaxSize(3);
    return Combinators.combine(cases, podClaims, Arbitraries.of(true, false), nodeLabels).as(Scenario::new);
  }
}
