package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.PodDisruptionBudget;
import io.kubesched.api.PodInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler 1.37's {@code pkg/scheduler/framework/preemption/util_test.go}, ported under kube's case
 * names: {@code TestFilterVictimsWithPDBViolation} and the pod cases of {@code TestMoreImportantVictim}.
 *
 * <p>Not expressible (no pod groups in the model: every victim is one pod): in {@code
 * TestFilterVictimsWithPDBViolation}, "podgroup victim with multiple pods, all violating" and "podgroup victim
 * with multiple pods, none violating"; in {@code TestMoreImportantVictim}, the eighteen cases comparing
 * PodGroups and CompositePodGroups ("vi1 is PG, vi2 is Pod, same priority" through "both CPGs, same size, vi2
 * older (earlier start time wins)"). {@code TestPodTerminatingByPreemption} belongs to the adapter, which
 * computes {@link PodInfo#preemptedByScheduler()}.
 */
class PreemptionUtilTest {

  private static final String DEFAULT = "default";

  private static PodInfo pod(String namespace, String name, Map<String, String> labels) {
    return PodInfo.builder(namespace, name).labels(labels).build();
  }

  private static PodDisruptionBudget pdb(LabelSelector selector, int allowed, String... disrupted) {
    return new PodDisruptionBudget(DEFAULT, "pdb", selector, allowed, Set.of(disrupted));
  }

  record PdbCase(
      String name,
      List<PodInfo> victims,
      List<PodDisruptionBudget> pdbs,
      List<PodInfo> expectedViolating,
      List<PodInfo> expectedNonViolating) {}

  static Stream<Arguments> pdbCases() {
    var viNoPdbMatch = pod("", "p1", Map.of("app", "foo"));
    var viMatchPdb = pod(DEFAULT, "p1", Map.of("app", "foo"));
    var viMatchPdb2 = pod(DEFAULT, "p2", Map.of("app", "foo"));
    var viMatchMultiplePdbs = pod(DEFAULT, "p1", Map.of("app", "foo", "tier", "backend"));
    var appFoo = LabelSelector.of(Map.of("app", "foo"));
    var cases = new ArrayList<PdbCase>();
    cases.add(new PdbCase("no victims, no PDBs", List.of(), List.of(), List.of(), List.of()));
    cases.add(new PdbCase(
        "victim with no matching PDBs",
        List.of(viNoPdbMatch),
        List.of(pdb(LabelSelector.of(Map.of("app", "bar")), 0)),
        List.of(),
        List.of(viNoPdbMatch)));
    cases.add(new PdbCase(
        "victim matching PDB, adequate DisruptionsAllowed",
        List.of(viMatchPdb),
        List.of(pdb(appFoo, 1)),
        List.of(),
        List.of(viMatchPdb)));
    cases.add(new PdbCase(
        "victim matching PDB, no DisruptionsAllowed",
        List.of(viMatchPdb),
        List.of(pdb(appFoo, 0)),
        List.of(viMatchPdb),
        List.of()));
    cases.add(new PdbCase(
        "multiple victims matching the same PDB",
        List.of(viMatchPdb, viMatchPdb2),
        List.of(pdb(appFoo, 1)),
        List.of(viMatchPdb2),
        List.of(viMatchPdb)));
    cases.add(new PdbCase(
        "pod in DisruptedPods is ignored",
        List.of(viMatchPdb),
        List.of(pdb(appFoo, 0, "p1")),
        List.of(),
        List.of(viMatchPdb)));
    cases.add(new PdbCase(
        "PDB with empty selector",
        List.of(viMatchPdb),
        List.of(pdb(LabelSelector.EVERYTHING, 0)),
        List.of(),
        List.of(viMatchPdb)));
    cases.add(new PdbCase(
        "Multiple PDBs",
        List.of(viMatchMultiplePdbs),
        List.of(pdb(appFoo, 1), pdb(LabelSelector.of(Map.of("tier", "backend")), 0)),
        List.of(viMatchMultiplePdbs),
        List.of()));
    return cases.stream().map(c -> Arguments.of(c.name(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pdbCases")
  void TestFilterVictimsWithPDBViolation(String name, PdbCase c) {
    var split = Preemption.splitByPdbViolation(c.victims(), c.pdbs());

    assertEquals(c.expectedViolating(), split.violating());
    assertEquals(c.expectedNonViolating(), split.nonViolating());
  }

  static Stream<Arguments> importanceCases() {
    var now = Instant.ofEpochSecond(1000);
    var before = Instant.ofEpochSecond(500);
    return Stream.of(
        Arguments.of("vi1 has higher priority", victim(20, null), victim(10, null), true),
        Arguments.of("vi2 has higher priority", victim(10, null), victim(20, null), false),
        Arguments.of("both Pods, vi1 older", victim(10, before), victim(10, now), true),
        Arguments.of("both Pods, vi2 older", victim(10, now), victim(10, before), false));
  }

  private static PodInfo victim(int priority, @Nullable Instant startTime) {
    return PodInfo.builder(DEFAULT, "p").priority(priority).startTime(startTime).build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("importanceCases")
  void TestMoreImportantVictim(String name, PodInfo vi1, PodInfo vi2, boolean want) {
    assertEquals(want, Preemption.moreImportant(vi1, vi2));
  }
}
