package io.kubesched.policy.plugins.podtopologyspread;

import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.kubesched.api.NodeInfo;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kube-scheduler 1.37's {@code podtopologyspread/filtering_test.go}, ported case by case under kube's case
 * names ({@code TestPreFilterState}, {@code TestSingleConstraint}, {@code TestMultipleConstraints}, {@code
 * TestPreFilterDisabled}).
 *
 * <p>Not ported: {@code TestPreFilterState}'s "matchLabelKeys ignored when feature gate disabled" (it runs with
 * the MatchLabelKeysInPodTopologySpread gate off; 1.37 has it on by default); {@code TestPodTopoSignatures} (pod signatures for batched scheduling) and {@code
 * TestPodTopologySpread_DeferredResizeSkipped} (in-place resize), neither in the model. Where a kube case runs
 * with a gate off but sets nothing the gate governs, it is ported: its result is the same with the gate on.
 * {@code TestPreFilterStateAddPod} and {@code TestPreFilterStateRemovePod} run kube's incremental update of the
 * state for preemption through a {@linkplain PodTopologySpreadFilter.Prepared#track() tracker}. Both critical
 * paths are compared as kube compares them (domains of equal counts sorted).
 */
class PodTopologySpreadFilterTest {

  // ---------------------------------------------------------------- TestPreFilterState

  @ParameterizedTest(name = "{0}")
  @MethodSource("preFilterStateCases")
  void TestPreFilterState(Case tt) {
    var filter = new PodTopologySpreadFilter(PodTopologySpreadArgs.list(api(tt.defaultConstraints)));
    var prepared = filter.prepare(tt.pod(), tt.cluster());
    if (SKIP.equals(tt.wantPrefilterStatus)) {
      assertEquals(false, prepared instanceof PodTopologySpreadFilter.Prepared, "PreFilter skips: " + prepared);
      return;
    }
    assertPreFilterState(tt, prepared);
  }

  private static void assertPreFilterState(Case tt, io.kubesched.policy.framework.Filter prepared) {
    var got = assertInstanceOf(PodTopologySpreadFilter.Prepared.class, prepared);
    assertConstraints(Objects.requireNonNull(tt.wantPreFilterState).constraints, got.constraints());
    assertState(tt, got.state());
  }

  /** Kube's {@code stateCmpOpts}: the counts, and both critical paths with equal counts' domains sorted. */
  private static void assertState(Case tt, PodTopologySpreadFilter.State got) {
    var want = tt.wantPreFilterState;
    assertNotNull(want);
    assertEquals(want.tpValueToMatchNum, got.counts(), "TpValueToMatchNum");
    for (int i = 0; i < want.criticalPaths.size(); i++) {
      var paths = got.paths(i);
      var gotPaths = paths(
          cp(paths.first().topologyValue(), paths.first().matchNum()),
          cp(paths.second().topologyValue(), paths.second().matchNum()));
      assertEquals(sorted(want.criticalPaths.get(i)), sorted(gotPaths), "CriticalPaths[" + i + "]");
    }
  }

  /** Kube's test helper {@code criticalPaths.sort}: equal counts' domains in alphabetical order. */
  private static Paths sorted(Paths p) {
    if (p.first().matchNum() == p.second().matchNum()
        && p.first().topologyValue().compareTo(p.second().topologyValue()) > 0) {
      return paths(
          cp(p.second().topologyValue(), p.first().matchNum()), cp(p.first().topologyValue(), p.second().matchNum()));
    }
    return p;
  }

  // ---------------------------------------------------------------- TestPreFilterStateAddPod, ...RemovePod

  private static final TscW nodeConstraint = tsc(1, "node", fooSelector, 1, HONOR, IGNORE);
  private static final TscW zoneConstraint = tsc(1, "zone", fooSelector, 1, HONOR, IGNORE);

  /**
   * Kube's runner: PreFilter over the snapshot of {@code existingPods}, then AddPod of {@code addedPod} on {@code
   * nodes[nodeIdx]}; here a tracker of the prepared filter is told of the pod.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("addPodCases")
  void TestPreFilterStateAddPod(Case tt) {
    var added = tt.addedPod;
    assertNotNull(added);
    assertTracked(tt, (tracker, node) -> tracker.addPod(added, node));
  }

  /**
   * Kube's runner: PreFilter over the snapshot of {@code existingPods}, then RemovePod of {@code
   * existingPods[deletedPodIdx]} (or {@code deletedPod}) from {@code nodes[nodeIdx]}.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("removePodCases")
  void TestPreFilterStateRemovePod(Case tt) {
    var deleted = tt.deletedPodIdx >= 0 && tt.deletedPodIdx < tt.existingPods.size()
        ? tt.existingPods.get(tt.deletedPodIdx)
        : tt.deletedPod;
    assertNotNull(deleted);
    assertTracked(tt, (tracker, node) -> tracker.removePod(deleted, node));
  }

  /**
   * The runners' common part: prepares the filter for {@code tt}'s pod on its cluster, tells a tracker of it the
   * {@code change} on {@code nodes[nodeIdx]}, and asserts the prepared constraints and the tracked state.
   */
  private static void assertTracked(Case tt, BiConsumer<PodTopologySpreadFilter.SpreadTracker, NodeInfo> change) {
    var cluster = tt.cluster();
    var prepared = assertInstanceOf(PodTopologySpreadFilter.Prepared.class,
        new PodTopologySpreadFilter(PodTopologySpreadArgs.list(List.of())).prepare(tt.pod(), cluster));
    var tracker = prepared.track();
    change.accept(tracker, cluster.node(tt.nodes.get(tt.nodeIdx).name()).orElseThrow());
    assertConstraints(Objects.requireNonNull(tt.wantPreFilterState).constraints, prepared.constraints());
    assertState(tt, tracker.state());
  }

  // ---------------------------------------------------------------- TestSingleConstraint, TestMultipleConstraints

  @ParameterizedTest(name = "{0}")
  @MethodSource("singleConstraintCases")
  void TestSingleConstraint(Case tt) {
    assertStatusCodes(tt);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("multipleConstraintsCases")
  void TestMultipleConstraints(Case tt) {
    assertStatusCodes(tt);
  }

  /** Kube's runner: PreFilter over the snapshot, then Filter on each node; the reason matches the code. */
  private static void assertStatusCodes(Case tt) {
    var cluster = tt.cluster();
    var prepared = new PodTopologySpreadFilter(PodTopologySpreadArgs.list(List.of())).prepare(tt.pod(), cluster);
    var got = new HashMap<String, Code>();
    for (var node : tt.feasibleNodes(cluster)) {
      var result = prepared.filter(tt.pod(), node);
      got.put(node.name(), result.code());
      if (result instanceof FilterResult.Rejected rejected) {
        assertEquals(1, rejected.reasons().size());
        Reason reason = rejected.reasons().get(0);
        assertEquals(
            result.code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE
                ? PodTopologySpreadFilter.NODE_LABEL_NOT_MATCH
                : PodTopologySpreadFilter.CONSTRAINTS_NOT_MATCH,
            reason.message());
      }
    }
    if (!tt.wantStatusCode.isEmpty()) {
      assertEquals(tt.wantStatusCode, got);
    }
  }

  // ---------------------------------------------------------------- TestPreFilterDisabled

  @Test
  void TestPreFilterDisabled() {
    var result = new PodTopologySpreadFilter(PodTopologySpreadArgs.list(List.of()))
        .filter(makePod().obj(), makeNode().obj());
    assertEquals(Code.ERROR, result.code());
  }

  // ---------------------------------------------------------------- the tables

  static Stream<Case> preFilterStateCases() {
    return Stream.of(
        preFilterState0(), preFilterState1(), preFilterState2(), preFilterState3(), preFilterState4(),
        preFilterState5(), preFilterState6(), preFilterState7(), preFilterState8(), preFilterState9(),
        preFilterState10(), preFilterState11(), preFilterState12(), preFilterState13(), preFilterState14(),
        preFilterState15(), preFilterState16(), preFilterState17(), preFilterState18(), preFilterState19(),
        preFilterState20(), preFilterState21(), preFilterState22(), preFilterState23(), preFilterState24(),
        preFilterState25(), preFilterState26(), preFilterState27(), preFilterState28(), preFilterState29(),
        preFilterState30(), preFilterState31(), preFilterState32(), preFilterState33(), preFilterState34());
  }

  private static Case preFilterState0() {
    return tc()
        .name("clean cluster with one spreadConstraint")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(5, "zone", DO_NOT_SCHEDULE, makeLabelSelector().label("foo", "bar").obj(), null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(5, "zone", makeLabelSelector().label("foo", "bar").obj(), 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone1", 0), cp("zone2", 0))))
            .tpValueToMatchNum(List.of(ints("zone1", 0, "zone2", 0))));
  }

  private static Case preFilterState1() {
    return tc()
        .name("normal case with one spreadConstraint")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "zone", fooSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 2), cp("zone1", 3))))
            .tpValueToMatchNum(List.of(ints("zone1", 3, "zone2", 2))));
  }

  private static Case preFilterState2() {
    return tc()
        .name("normal case with null label selector")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, null, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "zone", null, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 0), cp("zone1", 0))))
            .tpValueToMatchNum(List.of(ints("zone1", 0, "zone2", 0))));
  }

  private static Case preFilterState3() {
    return tc()
        .name("normal case with one spreadConstraint, on a 3-zone cluster")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj(),
            makeNode().name("node-o").label("zone", "zone3").label("node", "node-o").obj(),
            makeNode().name("node-p").label("zone", "zone3").label("node", "node-p").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "zone", fooSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone3", 0), cp("zone2", 2))))
            .tpValueToMatchNum(List.of(ints("zone1", 3, "zone2", 2, "zone3", 0))));
  }

  private static Case preFilterState4() {
    return tc()
        .name("namespace mismatch doesn't count")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").namespace("ns1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").namespace("ns2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "zone", fooSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 1), cp("zone1", 2))))
            .tpValueToMatchNum(List.of(ints("zone1", 2, "zone2", 1))));
  }

  private static Case preFilterState5() {
    return tc()
        .name("normal case with two spreadConstraints")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj(),
            makePod().name("p-y4").node("node-y").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, "node", fooSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone1", 3), cp("zone2", 4)), paths(cp("node-x", 0), cp("node-b", 1))))
            .tpValueToMatchNum(List.of(
            ints("zone1", 3, "zone2", 4),
            ints("node-a", 2, "node-b", 1, "node-x", 0, "node-y", 4))));
  }

  private static Case preFilterState6() {
    return tc()
        .name("soft spreadConstraints should be bypassed")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, fooSelector, null, null, null, null)
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", SCHEDULE_ANYWAY, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj(),
            makePod().name("p-y4").node("node-y").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, "node", fooSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone1", 3), cp("zone2", 4)), paths(cp("node-b", 1), cp("node-a", 2))))
            .tpValueToMatchNum(List.of(ints("zone1", 3, "zone2", 4), ints("node-a", 2, "node-b", 1, "node-y", 4))));
  }

  private static Case preFilterState7() {
    return tc()
        .name("different labelSelectors - simple version")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("foo", "").obj(),
            makePod().name("p-b").node("node-b").label("bar", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, "node", barSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 0), cp("zone1", 1)), paths(cp("node-a", 0), cp("node-y", 0))))
            .tpValueToMatchNum(List.of(ints("zone1", 1, "zone2", 0), ints("node-a", 0, "node-b", 1, "node-y", 0))));
  }

  private static Case preFilterState8() {
    return tc()
        .name("different labelSelectors - complex pods")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").label("bar", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj(),
            makePod().name("p-y4").node("node-y").label("foo", "").label("bar", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, "node", barSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone1", 3), cp("zone2", 4)), paths(cp("node-b", 0), cp("node-a", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 3, "zone2", 4), ints("node-a", 1, "node-b", 0, "node-y", 2))));
  }

  private static Case preFilterState9() {
    return tc()
        .name("two spreadConstraints, and with podAffinity")
        .pod(makePod().name("p").label("foo", "").nodeAffinityNotIn("node", List.of("node-x"))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj(),
            makePod().name("p-y4").node("node-y").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, "node", fooSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone1", 3), cp("zone2", 4)), paths(cp("node-b", 1), cp("node-a", 2))))
            .tpValueToMatchNum(List.of(ints("zone1", 3, "zone2", 4), ints("node-a", 2, "node-b", 1, "node-y", 4))));
  }

  private static Case preFilterState10() {
    return tc()
        .name("default constraints and a service")
        .pod(makePod().name("p").label("foo", "bar").label("baz", "kar").obj())
        .defaultConstraints(List.of(
            defaultConstraint(3, "node", DO_NOT_SCHEDULE),
            defaultConstraint(2, "node", SCHEDULE_ANYWAY),
            defaultConstraint(5, "rack", DO_NOT_SCHEDULE)))
        .objs(List.of(service().spec(serviceSpec().selector(strs("foo", "bar")))))
        .want(preFilterState()
            .constraints(List.of(
            tsc(3, "node", makeLabelSelector().label("foo", "bar").obj(), 1, HONOR, IGNORE),
            tsc(5, "rack", makeLabelSelector().label("foo", "bar").obj(), 1, HONOR, IGNORE)))
            .criticalPaths(List.of(newCriticalPaths(), newCriticalPaths()))
            .tpValueToMatchNum(List.of(ints(), ints())));
  }

  private static Case preFilterState11() {
    return tc()
        .name("default constraints and a service that doesn't match")
        .pod(makePod().name("p").label("foo", "bar").obj())
        .defaultConstraints(List.of(defaultConstraint(3, "node", DO_NOT_SCHEDULE)))
        .objs(List.of(service().spec(serviceSpec().selector(strs("baz", "kep")))))
        .wantPrefilterStatus(SKIP);
  }

  private static Case preFilterState12() {
    return tc()
        .name("default constraints and a service, but pod has constraints")
        .pod(makePod().name("p").label("foo", "bar").label("baz", "tar")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, makeLabelSelector().label("baz", "tar").obj(), null, null, null, null)
            .spreadConstraint(2, "planet", SCHEDULE_ANYWAY, makeLabelSelector().label("fot", "rok").obj(), null, null, null, null).obj())
        .defaultConstraints(List.of(defaultConstraint(2, "node", DO_NOT_SCHEDULE)))
        .objs(List.of(service().spec(serviceSpec().selector(strs("foo", "bar")))))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "zone", makeLabelSelector().label("baz", "tar").obj(), 1, HONOR, IGNORE)))
            .criticalPaths(List.of(newCriticalPaths()))
            .tpValueToMatchNum(List.of(ints())));
  }

  private static Case preFilterState13() {
    return tc()
        .name("default soft constraints and a service")
        .pod(makePod().name("p").label("foo", "bar").obj())
        .defaultConstraints(List.of(defaultConstraint(2, "node", SCHEDULE_ANYWAY)))
        .objs(List.of(service().spec(serviceSpec().selector(strs("foo", "bar")))))
        .wantPrefilterStatus(SKIP);
  }

  private static Case preFilterState14() {
    return tc()
        .name("TpKeyToDomainsNum is calculated when MinDomains is enabled")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj(),
            makePod().name("p-y4").node("node-y").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, "node", fooSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone1", 3), cp("zone2", 4)), paths(cp("node-x", 0), cp("node-b", 1))))
            .tpValueToMatchNum(List.of(
            ints("zone1", 3, "zone2", 4),
            ints("node-a", 2, "node-b", 1, "node-x", 0, "node-y", 4))));
  }

  private static Case preFilterState15() {
    return tc()
        .name("feature gate disabled with NodeAffinityPolicy")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-c").label("node", "node-c").label("bar", "").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("bar", "").obj(),
            makePod().name("p-b").node("node-b").label("bar", "").obj(),
            makePod().name("p-c").node("node-b").label("bar", "").obj(),
            makePod().name("p-d").node("node-c").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "node", barSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("node-a", 1), cp("node-b", 2))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 2))))
        .enableNodeInclusionPolicy(false);
  }

  private static Case preFilterState16() {
    return tc()
        .name("NodeAffinityPolicy honored with labelSelectors")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-c").label("node", "node-c").label("bar", "").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("bar", "").obj(),
            makePod().name("p-b").node("node-b").label("bar", "").obj(),
            makePod().name("p-c").node("node-b").label("bar", "").obj(),
            makePod().name("p-d").node("node-c").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "node", barSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("node-a", 1), cp("node-b", 2))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 2))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState17() {
    return tc()
        .name("NodeAffinityPolicy ignored with labelSelectors")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-c").label("node", "node-c").label("bar", "").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("bar", "").obj(),
            makePod().name("p-b").node("node-b").label("bar", "").obj(),
            makePod().name("p-c").node("node-b").label("bar", "").obj(),
            makePod().name("p-d").node("node-c").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "node", barSelector, 1, IGNORE, IGNORE)))
            .criticalPaths(List.of(paths(cp("node-c", 0), cp("node-a", 1))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 2, "node-c", 0))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState18() {
    return tc()
        .name("NodeAffinityPolicy honored with nodeAffinity")
        .pod(makePod().name("p").label("foo", "").nodeAffinityIn("foo", List.of(""), MATCH_EXPRESSIONS)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-c").label("node", "node-c").label("bar", "").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("bar", "").obj(),
            makePod().name("p-c").node("node-b").label("bar", "").obj(),
            makePod().name("p-d").node("node-b").label("bar", "").obj(),
            makePod().name("p-e").node("node-c").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "node", barSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("node-a", 1), cp("node-b", 2))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 2))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState19() {
    return tc()
        .name("NodeAffinityPolicy ignored with nodeAffinity")
        .pod(makePod().name("p").label("foo", "").nodeAffinityIn("foo", List.of(""), MATCH_EXPRESSIONS)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-c").label("node", "node-c").label("bar", "").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("bar", "").obj(),
            makePod().name("p-b").node("node-b").label("bar", "").obj(),
            makePod().name("p-c").node("node-b").label("bar", "").obj(),
            makePod().name("p-d").node("node-c").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "node", barSelector, 1, IGNORE, IGNORE)))
            .criticalPaths(List.of(paths(cp("node-c", 0), cp("node-a", 1))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 2, "node-c", 0))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState20() {
    return tc()
        .name("feature gate disabled with NodeTaintsPolicy")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").obj(),
            makeNode().name("node-b").label("node", "node-b").obj(),
            makeNode().name("node-c").label("node", "node-c").taints(taints).label("bar", "").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("bar", "").obj(),
            makePod().name("p-b").node("node-b").label("bar", "").obj(),
            makePod().name("p-c").node("node-b").label("bar", "").obj(),
            makePod().name("p-d").node("node-c").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "node", barSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("node-c", 0), cp("node-a", 1))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 2, "node-c", 0))))
        .enableNodeInclusionPolicy(false);
  }

  private static Case preFilterState21() {
    return tc()
        .name("NodeTaintsPolicy ignored")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").obj(),
            makeNode().name("node-b").label("node", "node-b").obj(),
            makeNode().name("node-c").label("node", "node-c").taints(taints).label("bar", "").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("bar", "").obj(),
            makePod().name("p-b").node("node-b").label("bar", "").obj(),
            makePod().name("p-c").node("node-b").label("bar", "").obj(),
            makePod().name("p-d").node("node-c").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "node", barSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("node-c", 0), cp("node-a", 1))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 2, "node-c", 0))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState22() {
    return tc()
        .name("NodeTaintsPolicy honored")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, HONOR, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").obj(),
            makeNode().name("node-b").label("node", "node-b").obj(),
            makeNode().name("node-c").label("node", "node-c").taints(taints).label("bar", "").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("bar", "").obj(),
            makePod().name("p-b").node("node-b").label("bar", "").obj(),
            makePod().name("p-c").node("node-b").label("bar", "").obj(),
            makePod().name("p-d").node("node-c").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "node", barSelector, 1, HONOR, HONOR)))
            .criticalPaths(List.of(paths(cp("node-a", 1), cp("node-b", 2))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 2))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState23() {
    return tc()
        .name("NodeTaintsPolicy honored with tolerated taints")
        .pod(makePod().name("p").label("foo", "").toleration("node.kubernetes.io/unschedulable")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, HONOR, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").obj(),
            makeNode().name("node-b").label("node", "node-b").obj(),
            makeNode().name("node-c").label("node", "node-c").taints(taints).label("bar", "").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("bar", "").obj(),
            makePod().name("p-b").node("node-b").label("bar", "").obj(),
            makePod().name("p-c").node("node-b").label("bar", "").obj(),
            makePod().name("p-d").node("node-c").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "node", barSelector, 1, HONOR, HONOR)))
            .criticalPaths(List.of(paths(cp("node-c", 0), cp("node-a", 1))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 2, "node-c", 0))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState24() {
    return tc()
        .name("two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, "node", fooSelector, 1, IGNORE, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone1", 0), cp("zone2", 1)), paths(cp("node-a", 0), cp("node-x", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 0, "zone2", 1), ints("node-a", 0, "node-b", 2, "node-x", 1))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState25() {
    return tc()
        .name("two node inclusion Constraints, zone: honor/honor, node: honor/ignore")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, HONOR, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").taints(taints).obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, HONOR),
            tsc(1, "node", fooSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone1", 0), cp("zone2", 1)), paths(cp("node-a", 0), cp("node-x", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 0, "zone2", 1), ints("node-a", 0, "node-b", 2, "node-x", 1))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState26() {
    return tc()
        .name("two node inclusion Constraints, zone: honor/ignore, node: honor/ignore")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").label("foo", "").taints(taints).obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, "node", fooSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone1", 0), cp("zone2", 1)), paths(cp("node-b", 0), cp("node-x", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 0, "zone2", 1), ints("node-b", 0, "node-x", 1))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState27() {
    return tc()
        .name("two node inclusion Constraints, zone: ignore/ignore, node: honor/honor")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, IGNORE, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, HONOR, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").label("foo", "").taints(taints).obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").label("foo", "").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-x2").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, IGNORE, IGNORE),
            tsc(1, "node", fooSelector, 1, HONOR, HONOR)))
            .criticalPaths(List.of(paths(cp("zone1", 2), cp("zone2", 3)), paths(cp("node-y", 1), cp("node-x", 2))))
            .tpValueToMatchNum(List.of(ints("zone1", 2, "zone2", 3), ints("node-x", 2, "node-y", 1))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case preFilterState28() {
    return tc()
        .name("matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty")
        .pod(makePod().name("p").label("foo", "").label("bar", "a")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, List.of("bar")).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").label("bar", "a").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").label("bar", "a").obj(),
            makePod().name("p-y2").node("node-y").label("bar", "").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "zone", makeLabelSelector().exists("foo").label("bar", "a").obj(), 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 1), cp("zone1", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 1, "zone2", 1))))
        .enableMatchLabelKeys(true);
  }

  private static Case preFilterState29() {
    return tc()
        .name("matchLabelKeys ANDed with LabelSelector when LabelSelector is empty")
        .pod(makePod().name("p").label("foo", "a")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, makeLabelSelector().obj(), null, null, null, List.of("foo")).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "a").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "a").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "a").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "a").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "a").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "zone", makeLabelSelector().label("foo", "a").obj(), 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 2), cp("zone1", 3))))
            .tpValueToMatchNum(List.of(ints("zone1", 3, "zone2", 2))))
        .enableMatchLabelKeys(true);
  }

  private static Case preFilterState30() {
    return tc()
        .name("key in matchLabelKeys is ignored when LabelSelector is nil when feature gate enabled")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, null, null, null, null, List.of("bar")).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "a").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "a").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "a").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "a").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "a").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "zone", null, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 0), cp("zone1", 0))))
            .tpValueToMatchNum(List.of(ints("zone1", 0, "zone2", 0))))
        .enableMatchLabelKeys(true);
  }

  private static Case preFilterState31() {
    return tc()
        .name("no pod is matched when LabelSelector is nil when feature gate disabled")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, null, null, null, null, List.of("bar")).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "a").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "a").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "a").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "a").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "a").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "zone", null, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 0), cp("zone1", 0))))
            .tpValueToMatchNum(List.of(ints("zone1", 0, "zone2", 0))));
  }

  private static Case preFilterState32() {
    return tc()
        .name("key in matchLabelKeys is ignored when it isn't exist in pod.labels")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, List.of("bar")).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "a").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "a").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "a").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "a").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "a").obj()))
        .want(preFilterState()
            .constraints(List.of(tsc(1, "zone", fooSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 2), cp("zone1", 3))))
            .tpValueToMatchNum(List.of(ints("zone1", 3, "zone2", 2))))
        .enableMatchLabelKeys(true);
  }

  private static Case preFilterState33() {
    return tc()
        .name("two spreadConstraints with the same topologyKey")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").label("bar", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("bar", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y2").node("node-y").label("bar", "").obj()))
        .want(preFilterState()
            .constraints(List.of(
            tsc(1, "zone", fooSelector, 1, HONOR, IGNORE),
            tsc(1, "zone", barSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 1), cp("zone1", 2)), paths(cp("zone1", 1), cp("zone2", 3))))
            .tpValueToMatchNum(List.of(ints("zone1", 2, "zone2", 1), ints("zone1", 1, "zone2", 3))));
  }

  private static Case preFilterState34() {
    return tc()
        .name("skip if not specified")
        .pod(makePod().name("p").label("foo", "").obj())
        .nodes(List.of(makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj()))
        .wantPrefilterStatus(SKIP);
  }

  static Stream<Case> addPodCases() {
    return Stream.of(
        addPod0(), addPod1(), addPod2(), addPod3(), addPod4(),
        addPod5(), addPod6(), addPod7(), addPod8(), addPod9(),
        addPod10(), addPod11(), addPod12(), addPod13(), addPod14(),
        addPod15());
  }

  private static Case addPod0() {
    return tc()
        .name("node a and b both impact current min match")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .addedPod(makePod().name("p-a1").node("node-a").label("foo", "").obj())
        .existingPods(null)
        .nodeIdx(0)
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj()))
        .want(preFilterState()
            .constraints(List.of(nodeConstraint))
            .criticalPaths(List.of(paths(cp("node-b", 0), cp("node-a", 1))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 0))));
  }

  private static Case addPod1() {
    return tc()
        .name("only node a impacts current min match")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .addedPod(makePod().name("p-a1").node("node-a").label("foo", "").obj())
        .existingPods(List.of(makePod().name("p-b1").node("node-b").label("foo", "").obj()))
        .nodeIdx(0)
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj()))
        .want(preFilterState()
            .constraints(List.of(nodeConstraint))
            .criticalPaths(List.of(paths(cp("node-a", 1), cp("node-b", 1))))
            .tpValueToMatchNum(List.of(ints("node-a", 1, "node-b", 1))));
  }

  private static Case addPod2() {
    return tc()
        .name("add a pod in a different namespace doesn't change topologyKeyToMinPodsMap")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .addedPod(makePod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj())
        .existingPods(List.of(makePod().name("p-b1").node("node-b").label("foo", "").obj()))
        .nodeIdx(0)
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj()))
        .want(preFilterState()
            .constraints(List.of(nodeConstraint))
            .criticalPaths(List.of(paths(cp("node-a", 0), cp("node-b", 1))))
            .tpValueToMatchNum(List.of(ints("node-a", 0, "node-b", 1))));
  }

  private static Case addPod3() {
    return tc()
        .name("add pod on non-critical node won't trigger re-calculation")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .addedPod(makePod().name("p-b2").node("node-b").label("foo", "").obj())
        .existingPods(List.of(makePod().name("p-b1").node("node-b").label("foo", "").obj()))
        .nodeIdx(1)
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj()))
        .want(preFilterState()
            .constraints(List.of(nodeConstraint))
            .criticalPaths(List.of(paths(cp("node-a", 0), cp("node-b", 2))))
            .tpValueToMatchNum(List.of(ints("node-a", 0, "node-b", 2))));
  }

  private static Case addPod4() {
    return tc()
        .name("node a and x both impact topologyKeyToMinPodsMap on zone and node")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .addedPod(makePod().name("p-a1").node("node-a").label("foo", "").obj())
        .existingPods(null)
        .nodeIdx(0)
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint, nodeConstraint))
            .criticalPaths(List.of(paths(cp("zone2", 0), cp("zone1", 1)), paths(cp("node-x", 0), cp("node-a", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 1, "zone2", 0), ints("node-a", 1, "node-x", 0))));
  }

  private static Case addPod5() {
    return tc()
        .name("only node a impacts topologyKeyToMinPodsMap on zone and node")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .addedPod(makePod().name("p-a1").node("node-a").label("foo", "").obj())
        .existingPods(List.of(makePod().name("p-x1").node("node-x").label("foo", "").obj()))
        .nodeIdx(0)
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint, nodeConstraint))
            .criticalPaths(List.of(paths(cp("zone1", 1), cp("zone2", 1)), paths(cp("node-a", 1), cp("node-x", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 1, "zone2", 1), ints("node-a", 1, "node-x", 1))));
  }

  private static Case addPod6() {
    return tc()
        .name("node a impacts topologyKeyToMinPodsMap on node, node x impacts topologyKeyToMinPodsMap on zone")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .addedPod(makePod().name("p-a1").node("node-a").label("foo", "").obj())
        .existingPods(List.of(
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj()))
        .nodeIdx(0)
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint, nodeConstraint))
            .criticalPaths(List.of(paths(cp("zone2", 1), cp("zone1", 3)), paths(cp("node-a", 1), cp("node-x", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 3, "zone2", 1), ints("node-a", 1, "node-b", 2, "node-x", 1))));
  }

  private static Case addPod7() {
    return tc()
        .name("Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on zone")
        .preemptor(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .addedPod(makePod().name("p-a1").node("node-a").label("foo", "").obj())
        .existingPods(List.of(
            makePod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").label("bar", "").obj(),
            makePod().name("p-x2").node("node-x").label("bar", "").obj()))
        .nodeIdx(0)
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint, tsc(1, "node", barSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone2", 1), cp("zone1", 2)), paths(cp("node-a", 0), cp("node-b", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 2, "zone2", 1), ints("node-a", 0, "node-b", 1, "node-x", 2))));
  }

  private static Case addPod8() {
    return tc()
        .name("Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on both zone and node")
        .preemptor(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .addedPod(makePod().name("p-a1").node("node-a").label("foo", "").label("bar", "").obj())
        .existingPods(List.of(
            makePod().name("p-b1").node("node-b").label("bar", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").label("bar", "").obj(),
            makePod().name("p-x2").node("node-x").label("bar", "").obj()))
        .nodeIdx(0)
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint, tsc(1, "node", barSelector, 1, HONOR, IGNORE)))
            .criticalPaths(List.of(paths(cp("zone1", 1), cp("zone2", 1)), paths(cp("node-a", 1), cp("node-b", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 1, "zone2", 1), ints("node-a", 1, "node-b", 1, "node-x", 2))));
  }

  private static Case addPod9() {
    return tc()
        .name("add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy disabled")
        .preemptor(makePod().name("p").label("foo", "").nodeAffinityNotIn("foo", List.of("bar"))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodeIdx(0)
        .addedPod(makePod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj())
        .existingPods(List.of(
            makePod().name("p-a2").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            makeNode().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone2", 1), cp("", Integer.MAX_VALUE))))
            .tpValueToMatchNum(List.of(ints("zone2", 1))))
        .enableNodeInclusionPolicy(false);
  }

  private static Case addPod10() {
    return tc()
        .name("add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled")
        .preemptor(makePod().name("p").label("foo", "").nodeAffinityNotIn("foo", List.of("bar"))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodeIdx(0)
        .addedPod(makePod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj())
        .existingPods(List.of(
            makePod().name("p-a2").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            makeNode().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone2", 1), cp("", Integer.MAX_VALUE))))
            .tpValueToMatchNum(List.of(ints("zone2", 1))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case addPod11() {
    return tc()
        .name("add a pod when scheduling node affinity matched pod with NodeInclusionPolicy disabled")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodeIdx(1)
        .addedPod(makePod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            makeNode().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone1", 1), cp("zone2", 2))))
            .tpValueToMatchNum(List.of(ints("zone1", 1, "zone2", 2))))
        .enableNodeInclusionPolicy(false);
  }

  private static Case addPod12() {
    return tc()
        .name("add a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodeIdx(1)
        .addedPod(makePod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            makeNode().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone1", 1), cp("zone2", 2))))
            .tpValueToMatchNum(List.of(ints("zone1", 1, "zone2", 2))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case addPod13() {
    return tc()
        .name("add a label selector not matched pod when with NodeInclusionPolicy enabled")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodeIdx(1)
        .addedPod(makePod().name("p-b1").node("node-b").label("zone", "zone2").obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            makeNode().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone1", 1), cp("zone2", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 1, "zone2", 1))))
        .enableNodeInclusionPolicy(true);
  }

  private static Case addPod14() {
    return tc()
        .name("add a pod when scheduling taint untolerated pod with NodeInclusionPolicy disabled")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodeIdx(1)
        .addedPod(makePod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").taints(taints).obj(),
            makeNode().name("node-b").label("zone", "zone2").label("node", "node-b").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone1", 1), cp("zone2", 2))))
            .tpValueToMatchNum(List.of(ints("zone2", 2, "zone1", 1))))
        .enableNodeInclusionPolicy(false);
  }

  private static Case addPod15() {
    return tc()
        .name("add a pod when scheduling taint tolerated pod with NodeInclusionPolicy enabled")
        .preemptor(makePod().name("p").label("foo", "").toleration("node.kubernetes.io/unschedulable")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodeIdx(1)
        .addedPod(makePod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj())
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").label("zone", "zone2").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").taints(taints).obj(),
            makeNode().name("node-b").label("zone", "zone2").label("node", "node-b").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone1", 1), cp("zone2", 2))))
            .tpValueToMatchNum(List.of(ints("zone2", 2, "zone1", 1))))
        .enableNodeInclusionPolicy(true);
  }

  static Stream<Case> removePodCases() {
    return Stream.of(
        removePod0(), removePod1(), removePod2(), removePod3(), removePod4(),
        removePod5(), removePod6());
  }

  private static Case removePod0() {
    return tc()
        .name("one spreadConstraint on zone, topologyKeyToMinPodsMap unchanged")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj()))
        .deletedPodIdx(0)
        .nodeIdx(0)
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone1", 1), cp("zone2", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 1, "zone2", 1))));
  }

  private static Case removePod1() {
    return tc()
        .name("one spreadConstraint on node, topologyKeyToMinPodsMap changed")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .deletedPodIdx(0)
        .nodeIdx(0)
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone1", 1), cp("zone2", 2))))
            .tpValueToMatchNum(List.of(ints("zone1", 1, "zone2", 2))));
  }

  private static Case removePod2() {
    return tc()
        .name("delete an irrelevant pod won't help")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a0").node("node-a").label("bar", "").obj(),
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .deletedPodIdx(0)
        .nodeIdx(0)
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone1", 2), cp("zone2", 2))))
            .tpValueToMatchNum(List.of(ints("zone1", 2, "zone2", 2))));
  }

  private static Case removePod3() {
    return tc()
        .name("delete a non-existing pod won't help")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .deletedPodIdx(-1)
        .deletedPod(makePod().name("p-a0").node("node-a").label("bar", "").obj())
        .nodeIdx(0)
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone1", 2), cp("zone2", 2))))
            .tpValueToMatchNum(List.of(ints("zone1", 2, "zone2", 2))));
  }

  private static Case removePod4() {
    return tc()
        .name("two spreadConstraints")
        .preemptor(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-x2").node("node-x").label("foo", "").obj()))
        .deletedPodIdx(3)
        .nodeIdx(2)
        .want(preFilterState()
            .constraints(List.of(zoneConstraint, nodeConstraint))
            .criticalPaths(List.of(paths(cp("zone2", 1), cp("zone1", 3)), paths(cp("node-b", 1), cp("node-x", 1))))
            .tpValueToMatchNum(List.of(ints("zone1", 3, "zone2", 1), ints("node-a", 2, "node-b", 1, "node-x", 1))));
  }

  private static Case removePod5() {
    return tc()
        .name("remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy disabled")
        .preemptor(makePod().name("p").label("foo", "").nodeAffinityNotIn("foo", List.of("bar"))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodeIdx(0)
        .deletedPod(makePod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj())
        .existingPods(List.of(
            makePod().name("p-a2").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            makeNode().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone2", 1), cp("", Integer.MAX_VALUE))))
            .tpValueToMatchNum(List.of(ints("zone2", 1))))
        .enableNodeInclusionPolicy(false);
  }

  private static Case removePod6() {
    return tc()
        .name("remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled")
        .preemptor(makePod().name("p").label("foo", "").nodeAffinityNotIn("foo", List.of("bar"))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodeIdx(0)
        .deletedPod(makePod().name("p-a1").node("node-a").label("foo", "").label("zone", "zone1").obj())
        .existingPods(List.of(
            makePod().name("p-a2").node("node-a").label("foo", "").label("zone", "zone1").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("zone", "zone2").obj()))
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "bar").obj(),
            makeNode().name("node-b").label("zone", "zone2").label("node", "node-b").label("foo", "").obj()))
        .want(preFilterState()
            .constraints(List.of(zoneConstraint))
            .criticalPaths(List.of(paths(cp("zone2", 1), cp("", Integer.MAX_VALUE))))
            .tpValueToMatchNum(List.of(ints("zone2", 1))))
        .enableNodeInclusionPolicy(true);
  }

  static Stream<Case> singleConstraintCases() {
    return Stream.of(
        singleConstraint0(), singleConstraint1(), singleConstraint2(), singleConstraint3(), singleConstraint4(),
        singleConstraint5(), singleConstraint6(), singleConstraint7(), singleConstraint8(), singleConstraint9(),
        singleConstraint10(), singleConstraint11(), singleConstraint12(), singleConstraint13(), singleConstraint14(),
        singleConstraint15(), singleConstraint16(), singleConstraint17(), singleConstraint18(), singleConstraint19(),
        singleConstraint20(), singleConstraint21(), singleConstraint22());
  }

  private static Case singleConstraint0() {
    return tc()
        .name("no existing pods")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.SUCCESS, "node-x", Code.SUCCESS, "node-y", Code.SUCCESS));
  }

  private static Case singleConstraint1() {
    return tc()
        .name("no existing pods, incoming pod doesn't match itself")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.SUCCESS, "node-x", Code.SUCCESS, "node-y", Code.SUCCESS));
  }

  private static Case singleConstraint2() {
    return tc()
        .name("existing pods in a different namespace do not count")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").namespace("ns1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").namespace("ns2").node("node-a").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.SUCCESS, "node-x", Code.UNSCHEDULABLE, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case singleConstraint3() {
    return tc()
        .name("existing pods do not match null selector")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, null, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.SUCCESS, "node-x", Code.SUCCESS, "node-y", Code.SUCCESS));
  }

  private static Case singleConstraint4() {
    return tc()
        .name("pods spread across zones as 3/3, all nodes fit")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.SUCCESS, "node-x", Code.SUCCESS, "node-y", Code.SUCCESS));
  }

  private static Case singleConstraint5() {
    return tc()
        .name("pods spread across zones as 1/2 due to absence of label 'zone' on node-b")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zon", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node-x", Code.UNSCHEDULABLE, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case singleConstraint6() {
    return tc()
        .name("pod cannot be scheduled as all nodes don't have label 'rack'")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "rack", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node-x", Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
  }

  private static Case singleConstraint7() {
    return tc()
        .name("pods spread across nodes as 2/1/0/3, only node-x fits")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case singleConstraint8() {
    return tc()
        .name("pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(2, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.SUCCESS, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case singleConstraint9() {
    return tc()
        .name("pods spread across nodes as 2/1/0/3, but pod doesn't match itself")
        .pod(makePod().name("p").label("bar", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.SUCCESS, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case singleConstraint10() {
    return tc()
        .name("incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits")
        .pod(makePod().name("p").label("foo", "").nodeAffinityIn("node", List.of("node-a", "node-y"), MATCH_EXPRESSIONS)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.SUCCESS, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case singleConstraint11() {
    return tc()
        .name("terminating Pods should be excluded")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").obj(),
            makeNode().name("node-b").label("node", "node-b").obj()))
        .existingPods(List.of(
            makePod().name("p-a").node("node-a").label("foo", "").terminating().obj(),
            makePod().name("p-b").node("node-b").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.UNSCHEDULABLE));
  }

  private static Case singleConstraint12() {
    return tc()
        .name("incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits")
        .pod(makePod().name("p").label("foo", "").nodeAffinityNotIn("node", List.of("node-b"))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.SUCCESS, "node-x", Code.UNSCHEDULABLE, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case singleConstraint13() {
    return tc()
        .name("pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(2, "node", DO_NOT_SCHEDULE, fooSelector, 4, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").obj(),
            makeNode().name("node-b").label("node", "node-b").obj(),
            makeNode().name("node-c").label("node", "node-c").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-c", Code.SUCCESS));
  }

  private static Case singleConstraint14() {
    return tc()
        .name("pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(2, "node", DO_NOT_SCHEDULE, fooSelector, 2, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").obj(),
            makeNode().name("node-b").label("node", "node-b").obj(),
            makeNode().name("node-c").label("node", "node-c").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-c1").node("node-c").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.SUCCESS, "node-c", Code.SUCCESS));
  }

  private static Case singleConstraint15() {
    return tc()
        .name("pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(2, "zone", DO_NOT_SCHEDULE, fooSelector, 3, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.SUCCESS));
  }

  private static Case singleConstraint16() {
    return tc()
        .name("pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(2, "zone", DO_NOT_SCHEDULE, fooSelector, 1, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.SUCCESS, "node-x", Code.SUCCESS, "node-y", Code.SUCCESS));
  }

  private static Case singleConstraint17() {
    return tc()
        .name("NodeAffinityPolicy honored with labelSelectors")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-x").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.SUCCESS))
        .enableNodeInclusionPolicy(true);
  }

  private static Case singleConstraint18() {
    return tc()
        .name("NodeAffinityPolicy ignored with labelSelectors")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-x").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE))
        .enableNodeInclusionPolicy(true);
  }

  private static Case singleConstraint19() {
    return tc()
        .name("NodeAffinityPolicy honored with nodeAffinity")
        .pod(makePod().name("p").label("foo", "").nodeAffinityIn("foo", List.of(""), MATCH_EXPRESSIONS)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-x").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.SUCCESS))
        .enableNodeInclusionPolicy(true);
  }

  private static Case singleConstraint20() {
    return tc()
        .name("NodeAffinityPolicy ignored with labelSelectors")
        .pod(makePod().name("p").label("foo", "").nodeAffinityIn("foo", List.of(""), MATCH_EXPRESSIONS)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-x").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE))
        .enableNodeInclusionPolicy(true);
  }

  private static Case singleConstraint21() {
    return tc()
        .name("NodeTaintsPolicy honored")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, HONOR, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-x").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("node", "node-y").taints(taints).obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.SUCCESS))
        .enableNodeInclusionPolicy(true);
  }

  private static Case singleConstraint22() {
    return tc()
        .name("NodeTaintsPolicy ignored")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-x").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("node", "node-y").taints(taints).obj()))
        .existingPods(List.of(
            makePod().name("p-b1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b2").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE))
        .enableNodeInclusionPolicy(true);
  }

  static Stream<Case> multipleConstraintsCases() {
    return Stream.of(
        multipleConstraints0(), multipleConstraints1(), multipleConstraints2(), multipleConstraints3(), multipleConstraints4(),
        multipleConstraints5(), multipleConstraints6(), multipleConstraints7(), multipleConstraints8(), multipleConstraints9(),
        multipleConstraints10(), multipleConstraints11(), multipleConstraints12());
  }

  private static Case multipleConstraints0() {
    return tc()
        .name("two Constraints on zone and node, spreads = [3/3, 2/1/0/3]")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case multipleConstraints1() {
    return tc()
        .name("two Constraints on zone and node, spreads = [3/4, 2/1/0/4]")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj(),
            makePod().name("p-y4").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.UNSCHEDULABLE, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case multipleConstraints2() {
    return tc()
        .name("Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("bar", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case multipleConstraints3() {
    return tc()
        .name("Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("bar", "").obj(),
            makePod().name("p-y1").node("node-y").label("bar", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.UNSCHEDULABLE, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case multipleConstraints4() {
    return tc()
        .name("Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.SUCCESS, "node-x", Code.UNSCHEDULABLE, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case multipleConstraints5() {
    return tc()
        .name("Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint")
        .pod(makePod().name("p").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, barSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-x1").node("node-x").label("bar", "").obj(),
            makePod().name("p-y1").node("node-y").label("bar", "").obj()))
        .wantStatusCode(codes("node-a", Code.SUCCESS, "node-b", Code.SUCCESS, "node-x", Code.UNSCHEDULABLE, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case multipleConstraints6() {
    return tc()
        .name("two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.SUCCESS, "node-x", Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node-y", Code.UNSCHEDULABLE));
  }

  private static Case multipleConstraints7() {
    return tc()
        .name("two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE))
        .enableNodeInclusionPolicy(true);
  }

  private static Case multipleConstraints8() {
    return tc()
        .name("two node inclusion Constraints, zone: honor/honor, node: honor/ignore")
        .pod(makePod().name("p").label("foo", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, HONOR, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").label("foo", "").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").taints(taints).obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE))
        .enableNodeInclusionPolicy(true);
  }

  private static Case multipleConstraints9() {
    return tc()
        .name("two node inclusion Constraints, zone: honor/ignore, node: honor/ignore")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").label("foo", "").taints(taints).obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.SUCCESS, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE))
        .enableNodeInclusionPolicy(true);
  }

  private static Case multipleConstraints10() {
    return tc()
        .name("two node inclusion Constraints, zone: honor/honor, node: ignore/ignore")
        .pod(makePod().name("p").label("foo", "").nodeSelector(strs("foo", ""))
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, HONOR, null)
            .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, IGNORE, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").label("foo", "").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").label("foo", "").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").label("foo", "").taints(taints).obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.UNSCHEDULABLE))
        .enableNodeInclusionPolicy(true);
  }

  private static Case multipleConstraints11() {
    return tc()
        .name("two Constraints on zone, spreads = [3/3, 2/1]")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, barSelector, null, null, null, null)
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").label("bar", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.SUCCESS, "node-y", Code.SUCCESS));
  }

  private static Case multipleConstraints12() {
    return tc()
        .name("two Constraints on zone, spreads = [3/4, 2/1]")
        .pod(makePod().name("p").label("foo", "").label("bar", "")
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, barSelector, null, null, null, null)
            .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj())
        .nodes(List.of(
            makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
            makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
            makeNode().name("node-x").label("zone", "zone2").label("node", "node-x").obj(),
            makeNode().name("node-y").label("zone", "zone2").label("node", "node-y").obj()))
        .existingPods(List.of(
            makePod().name("p-a1").node("node-a").label("foo", "").label("bar", "").obj(),
            makePod().name("p-a2").node("node-a").label("foo", "").obj(),
            makePod().name("p-b1").node("node-b").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y1").node("node-y").label("foo", "").obj(),
            makePod().name("p-y2").node("node-y").label("foo", "").label("bar", "").obj(),
            makePod().name("p-y3").node("node-y").label("foo", "").obj(),
            makePod().name("p-y4").node("node-y").label("foo", "").obj()))
        .wantStatusCode(codes("node-a", Code.UNSCHEDULABLE, "node-b", Code.UNSCHEDULABLE, "node-x", Code.UNSCHEDULABLE, "node-y", Code.UNSCHEDULABLE));
  }
}
