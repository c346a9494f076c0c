package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.runtime.Filtering;
import io.kubesched.policy.framework.runtime.TrackedFilters;
import io.kubesched.testkit.Cluster;
import io.kubesched.testkit.KubeArbitraries;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link GroupPlacement}'s laws over generated clusters (the testkit's), groups and members (the testkit's
 * pending pods made members), with the default policy: a placed group has its minimum, each member on a node
 * that passes every filter; an unplaced group lacks members or {@code minResources}; two groups never end
 * each half placed; the same input gives the same decision; nominations of lower priority change nothing.
 */
class GroupPlacementProperties {

  static final PodGroupRef GROUP_A = new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, "default", "a");
  static final PodGroupRef GROUP_B = new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "default", "b");

  /** Members' priority; the nominations of {@link #lowerNominationsChangeNothing} are all below it. */
  static final int MEMBER_PRIORITY = 100;

  /**
   * One group attempt.
   *
   * @param nodes the cluster
   * @param group the group
   * @param members its pending members, in order
   * @param placed how many were placed before
   * @param seed the policy's seed
   */
  record Case(List<NodeInfo> nodes, PodGroup group, List<PodInfo> members, int placed, long seed) {
    ClusterSnapshot snapshot() {
      return ClusterSnapshot.of(nodes);
    }

    Policy policy() {
      return DefaultPolicy.builder().seed(seed).build();
    }

    GroupDecision place() {
      return GroupPlacement.place(group, members, placed, snapshot(), policy());
    }
  }

  // Generators

  /** Pending pods of the testkit made members of {@code ref}: unique uids, one priority. */
  static Arbitrary<List<PodInfo>> members(Arbitrary<PodInfo> pods, PodGroupRef ref, int max) {
    return pods.list()
        .ofMinSize(1)
        .ofMaxSize(max)
        .map(
            list ->
                IntStream.range(0, list.size())
                    .mapToObj(
                        i ->
                            list.get(i).toBuilder()
                                .uid(ref.name() + "-member-" + i)
                                .podGroup(ref)
                                .priority(MEMBER_PRIORITY)
                                .build())
                    .toList());
  }

  /**
   * Cases where the group's minimum is drawn around its size: above what it has (refused before any member),
   * exactly its size (every member must fit: a failure stops the trial early), or below; and a {@code
   * minResources} in one case of three, half the time more than the cluster has free.
   */
  static Arbitrary<Case> cases(Arbitrary<PodInfo> pods, Arbitrary<Cluster> clusters) {
    return Combinators.combine(
            clusters,
            members(pods, GROUP_A, 6),
            Arbitraries.integers().between(0, 2),
            Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(-1)),
                Tuple.of(4, Arbitraries.just(0)),
                Tuple.of(3, Arbitraries.just(1)),
                Tuple.of(2, Arbitraries.just(2))),
            Arbitraries.of(MinResources.values()),
            Arbitraries.longs())
        .as(
            (cluster, members, placed, minSlack, shape, seed) -> {
              int minMember = Math.max(1, members.size() + placed - minSlack);
              var snapshot = ClusterSnapshot.of(cluster.nodes());
              var free =
                  GroupPlacement.checkMinResources(
                          new PodGroup(GROUP_A, "", 0, 1, null, Resources.of(1, 0), null, Instant.EPOCH), 0, snapshot)
                      .orElseThrow()
                      .free();
              var group =
                  new PodGroup(GROUP_A, "uid-a", 1, minMember, null, shape.of(free), null, Instant.EPOCH);
              return new Case(cluster.nodes(), group, members, placed, seed);
            })
        .withoutEdgeCases();
  }

  /** The {@code minResources} drawn: none, within what the cluster has free, or beyond it. */
  enum MinResources {
    NONE,
    NONE_AGAIN,
    WITHIN,
    BEYOND;

    Resources of(Resources free) {
      return switch (this) {
        case NONE, NONE_AGAIN -> Resources.ZERO;
        case WITHIN -> Resources.of(Math.max(1, free.milliCpu() / 2), 0);
        case BEYOND ->
            free.milliCpu() < Long.MAX_VALUE
                ? Resources.of(free.milliCpu() + 1, 0)
                : new Resources(0, 0, 0, 0, Map.of("example.com/absent", 1L)); // no node offers it
      };
    }
  }

  @Provide
  Arbitrary<Case> plainCases() {
    return cases(KubeArbitraries.pods(), KubeArbitraries.clusters().ofSize(1, 6));
  }

  @Provide
  Arbitrary<Case> constrainedCases() {
    return cases(
        KubeArbitraries.pods().withPlacementConstraints(), KubeArbitraries.clusters().ofSize(1, 6).withTopology());
  }

  // Re-checking a member: the policy's filters (prepared as the policy prepares them) on one node.

  static boolean feasibleOn(Policy policy, PodInfo pod, String nodeName, ClusterSnapshot snapshot) {
    var filters = new ArrayList<Filter>();
    for (var filter : policy.filters()) {
      filters.add(filter instanceof PreFilter preFilter ? preFilter.prepare(pod, snapshot) : filter);
    }
    var node = snapshot.node(nodeName).orElseThrow();
    return Filtering.runWithNominated(
            filters, () -> TrackedFilters.of(filters), pod, node, snapshot.nominations(), null)
        == null;
  }

  static ClusterSnapshot layIn(ClusterSnapshot snapshot, GroupDecision.Member member) {
    var node = member.bind().nodeName();
    return snapshot.withPodOn(member.pod().toBuilder().nodeName(node).build(), node);
  }

  /** Labels the outcome and why, and checks that the generator reaches every one of them. */
  static void classify(Case c, GroupDecision decision) {
    String why;
    if (decision instanceof GroupDecision.Placed) {
      why = "placed";
    } else {
      var unschedulable = (GroupDecision.Unschedulable) decision;
      if (unschedulable.message().startsWith("resource gap: ")) {
        why = "minResources gap";
      } else if (c.members().size() + c.placed() < c.group().minMember()) {
        why = "too few members";
      } else if (unschedulable.unfitted().values().stream()
          .anyMatch(d -> d.preFilterMessage().equals(unschedulable.message()))) {
        why = "early stop";
      } else {
        why = "all tried, too few fit";
      }
    }
    Statistics.label("outcome").collect(why);
    Statistics.label("outcome")
        .coverage(
            coverage -> {
              coverage.check("placed").percentage(p -> p >= 8);
              coverage.check("minResources gap").percentage(p -> p >= 3);
              coverage.check("too few members").percentage(p -> p >= 3);
              coverage.check("early stop").percentage(p -> p >= 3);
            });
  }

  // (a) Placed: the minimum reached, each member on a node that passes every filter.

  @Property(tries = 300)
  void placedReachesTheMinimumWithEveryMemberFeasible(@ForAll("plainCases") Case c) {
    var policy = c.policy();
    var decision = GroupPlacement.place(c.group(), c.members(), c.placed(), c.snapshot(), policy);
    classify(c, decision);
    if (!(decision instanceof GroupDecision.Placed placed)) {
      return;
    }
    assertTrue(c.placed() + placed.fitted().size() >= c.group().minMember(), decision::toString);
    assertPartition(c, placed.fitted().stream().map(GroupDecision.Member::pod).toList(), placed.unfitted());
    var fitted = placed.fitted();
    // These members constrain no other pod (no affinity, no spread): each fits with all the others laid in.
    for (int i = 0; i < fitted.size(); i++) {
      var others = c.snapshot();
      for (int j = 0; j < fitted.size(); j++) {
        if (j != i) {
          others = layIn(others, fitted.get(j));
        }
      }
      var member = fitted.get(i);
      assertTrue(
          feasibleOn(policy, member.pod(), member.bind().nodeName(), others),
          () -> member.pod().uid() + " on " + member.bind().nodeName() + " with the others: " + decision);
    }
  }

  @Property(tries = 200)
  void placedConstrainedMembersEachFitWithTheOnesBefore(@ForAll("constrainedCases") Case c) {
    // Members with affinity or spread constraints may constrain each other in one direction only (a later
    // member can raise the skew an earlier one counted), so each is checked as the trial decided it: with the
    // members before it laid in.
    var policy = c.policy();
    var decision = GroupPlacement.place(c.group(), c.members(), c.placed(), c.snapshot(), policy);
    Statistics.label("outcome").collect(decision instanceof GroupDecision.Placed ? "placed" : "unschedulable");
    Statistics.label("outcome").coverage(coverage -> coverage.check("placed").percentage(p -> p >= 5));
    if (decision instanceof GroupDecision.Placed placed) {
      assertTrue(c.placed() + placed.fitted().size() >= c.group().minMember(), decision::toString);
      var snapshot = c.snapshot();
      for (var member : placed.fitted()) {
        assertTrue(feasibleOn(policy, member.pod(), member.bind().nodeName(), snapshot), decision::toString);
        snapshot = layIn(snapshot, member);
      }
    }
  }

  // (b) Unschedulable: too few fit, or a minResources gap; nothing to assume.

  @Property(tries = 300)
  void unschedulableLacksMembersOrResources(@ForAll("plainCases") Case c) {
    var decision = c.place();
    classify(c, decision);
    if (!(decision instanceof GroupDecision.Unschedulable unschedulable)) {
      return;
    }
    assertPartition(c, unschedulable.fitted(), unschedulable.unfitted());
    var check = GroupPlacement.checkMinResources(c.group(), c.placed(), c.snapshot());
    boolean gap = check.isPresent() && !check.get().satisfied();
    assertTrue(
        c.placed() + unschedulable.fitted().size() < c.group().minMember() || gap, unschedulable::toString);
    if (gap && c.members().size() + c.placed() >= c.group().minMember()) { // the member count is checked first
      assertEquals(check.get().message(), unschedulable.message());
      assertTrue(unschedulable.fitted().isEmpty());
    }
  }

  private static void assertPartition(
      Case c, List<PodInfo> fitted, Map<String, Decision.Unschedulable> unfitted) {
    var uids = new HashSet<String>();
    fitted.forEach(p -> assertTrue(uids.add(p.uid()), p.uid()));
    unfitted.keySet().forEach(uid -> assertTrue(uids.add(uid), uid));
    assertEquals(c.members().stream().map(PodInfo::uid).collect(Collectors.toSet()), uids);
  }

  // (c) Two groups: never both half placed.

  /**
   * Two groups of one-cpu members on nodes with room for {@code R} of them, {@code minA} and {@code minB} each
   * at most {@code R} but together more: each fits alone, never both.
   */
  record Rivals(int nodes, int slotsPerNode, int minA, int minB, int extraA, int extraB, boolean bFirst, long seed) {
    int room() {
      return nodes * slotsPerNode;
    }

    ClusterSnapshot snapshot() {
      return ClusterSnapshot.of(
          IntStream.range(0, nodes)
              .mapToObj(i -> NodeInfo.builder("node-" + i).allocatable(slotsPerNode * 1000L, 1L << 30, 110).build())
              .toList());
    }

    List<PodInfo> members(PodGroupRef ref, int count) {
      return IntStream.range(0, count)
          .mapToObj(i -> PodInfo.builder("default", ref.name() + "-" + i).podGroup(ref).requests(1000, 0).build())
          .toList();
    }
  }

  @Provide
  Arbitrary<Rivals> rivals() {
    return Combinators.combine(
            Arbitraries.integers().between(1, 4),
            Arbitraries.integers().between(1, 3),
            Arbitraries.integers().between(1, 12),
            Arbitraries.integers().between(0, 12),
            Arbitraries.integers().between(0, 2),
            Arbitraries.integers().between(0, 2),
            Arbitraries.of(true, false),
            Arbitraries.longs())
        .as(
            (nodes, slots, a, b, extraA, extraB, bFirst, seed) -> {
              int room = nodes * slots;
              int minA = 1 + (a - 1) % room;
              int minB = room - minA + 1 + b % minA; // more than room - minA, at most room
              return new Rivals(nodes, slots, minA, minB, extraA, extraB, bFirst, seed);
            })
        .withoutEdgeCases();
  }

  @Property(tries = 200)
  void groupsThatFitOnlyAloneAreNeverBothPlaced(@ForAll("rivals") Rivals r) {
    var policy = DefaultPolicy.builder().seed(r.seed()).build();
    var a = PodGroup.of(GROUP_A, r.minA());
    var b = PodGroup.of(GROUP_B, r.minB());
    var membersA = r.members(GROUP_A, r.minA() + r.extraA());
    var membersB = r.members(GROUP_B, r.minB() + r.extraB());
    assertTrue(r.minA() <= r.room() && r.minB() <= r.room() && r.minA() + r.minB() > r.room(), r::toString);
    assertInstanceOf(GroupDecision.Placed.class, GroupPlacement.place(a, membersA, 0, r.snapshot(), policy), "A alone");
    assertInstanceOf(GroupDecision.Placed.class, GroupPlacement.place(b, membersB, 0, r.snapshot(), policy), "B alone");

    var first = r.bFirst() ? b : a;
    var second = r.bFirst() ? a : b;
    var outcome =
        placeOneAfterTheOther(first, r.bFirst() ? membersB : membersA, second, r.bFirst() ? membersA : membersB,
            r.snapshot(), policy);
    Statistics.label("order").collect(r.bFirst() ? "B first" : "A first");
    assertInstanceOf(GroupDecision.Placed.class, outcome.get(0), "the first one fits alone");
    assertInstanceOf(GroupDecision.Unschedulable.class, outcome.get(1), "the second cannot fit beside it");
  }

  @Property(tries = 200)
  void twoRandomGroupsAreEachPlacedWholeOrNotAtAll(
      @ForAll("plainCases") Case c, @ForAll("secondGroup") List<PodInfo> membersB, @ForAll boolean bFirst) {
    var policy = c.policy();
    var b = PodGroup.of(GROUP_B, Math.max(1, membersB.size() - 1));
    var outcome =
        bFirst
            ? placeOneAfterTheOther(b, membersB, c.group(), c.members(), c.snapshot(), policy)
            : placeOneAfterTheOther(c.group(), c.members(), b, membersB, c.snapshot(), policy);
    var decisionA = outcome.get(bFirst ? 1 : 0);
    var decisionB = outcome.get(bFirst ? 0 : 1);
    Statistics.label("both")
        .collect(
            (decisionA instanceof GroupDecision.Placed ? "A placed" : "A not")
                + ", "
                + (decisionB instanceof GroupDecision.Placed ? "B placed" : "B not"));
    assertWholeOrNothing(decisionA, c.group(), c.placed());
    assertWholeOrNothing(decisionB, b, 0);
  }

  @Provide
  Arbitrary<List<PodInfo>> secondGroup() {
    return members(KubeArbitraries.pods(), GROUP_B, 4);
  }

  /** Places {@code first}, lays its fitted members in if placed (as the loop assumes them), then {@code second}. */
  static List<GroupDecision> placeOneAfterTheOther(
      PodGroup first,
      List<PodInfo> firstMembers,
      PodGroup second,
      List<PodInfo> secondMembers,
      ClusterSnapshot snapshot,
      Policy policy) {
    var one = GroupPlacement.place(first, firstMembers, 0, snapshot, policy);
    var after = snapshot;
    if (one instanceof GroupDecision.Placed placed) {
      for (var member : placed.fitted()) {
        after = layIn(after, member);
      }
    }
    var two = GroupPlacement.place(second, secondMembers, 0, after, policy);
    return List.of(one, two);
  }

  /** What the loop would assume of a group: nothing, or at least what it lacks of its minimum. */
  static void assertWholeOrNothing(GroupDecision decision, PodGroup group, int placed) {
    int assumed = decision instanceof GroupDecision.Placed p ? p.fitted().size() : 0;
    assertTrue(assumed == 0 || placed + assumed >= group.minMember(), () -> group.key() + ": " + decision);
  }

  // (d) Determinism, and the explanation agrees.

  @Property(tries = 200)
  void sameInputSameDecisionAndTheExplanationAgrees(@ForAll("plainCases") Case c) {
    var decision = c.place();
    assertEquals(decision, c.place(), "a fresh policy with the same seed");
    var policy = c.policy();
    var explanation = policy.explainGroup(c.group(), c.members(), c.placed(), c.snapshot());
    assertEquals(decision, explanation.decision());
    assertEquals(decision, GroupPlacement.place(c.group(), c.members(), c.placed(), c.snapshot(), policy),
        "explaining first moves nothing");
    for (var member : explanation.members()) {
      assertEquals(member.outcome() != GroupExplanation.Outcome.NOT_TRIED, member.explanation().isPresent());
      member.explanation().ifPresent(e -> assertEquals(
          member.outcome() == GroupExplanation.Outcome.FITS, e.decision() instanceof Decision.Bind,
          member::toString));
    }
    classify(c, decision);
  }

  // (e) Nominations of lower priority than the members change nothing.

  @Provide
  Arbitrary<List<PodInfo>> lowerNominated() {
    return Combinators.combine(
            KubeArbitraries.pods().list().ofMaxSize(6),
            Arbitraries.integers().between(0, MEMBER_PRIORITY - 1).list().ofSize(6),
            Arbitraries.integers().between(0, 100).list().ofSize(6))
        .as(
            (pods, priorities, nodes) ->
                IntStream.range(0, pods.size())
                    .mapToObj(
                        i ->
                            pods.get(i).toBuilder()
                                .uid("nominated-" + i)
                                .priority(priorities.get(i))
                                .nominatedNodeName("#" + nodes.get(i))
                                .build())
                    .toList());
  }

  @Property(tries = 200)
  void lowerNominationsChangeNothing(@ForAll("plainCases") Case c, @ForAll("lowerNominated") List<PodInfo> pods) {
    var names = c.nodes().stream().map(NodeInfo::name).toList();
    var nominated =
        pods.stream()
            .map(p -> p.toBuilder()
                .nominatedNodeName(names.get(Integer.parseInt(p.nominatedNodeName().substring(1)) % names.size()))
                .build())
            .toList();
    var withNominations = c.snapshot().withNominations(Nominations.of(nominated));
    Statistics.label("nominations").collect(nominated.isEmpty() ? "none" : "some");
    Statistics.label("nominations").coverage(coverage -> coverage.check("some").percentage(p -> p >= 50));
    var without = c.place();
    var with = GroupPlacement.place(c.group(), c.members(), c.placed(), withNominations, c.policy());
    assertEquals(without, with);
    assertFalse(nominated.stream().anyMatch(p -> p.priority() >= MEMBER_PRIORITY));
  }
}
