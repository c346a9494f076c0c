package io.kubesched.informer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingConstants;
import io.kubesched.binder.BindOutcome;
import io.kubesched.informer.cycle.BindPort;
import io.kubesched.informer.cycle.BindingCycle;
import io.kubesched.informer.cycle.PodGroupLookup;
import io.kubesched.informer.report.GroupReportPort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The loop's pod group cycle without an API server: a group waits untried until its object and its minimum of
 * members exist, is placed whole or not at all against one snapshot, never leaves two groups each partly
 * placed, releases its unbound members when one cannot be bound, is reported timed out once, and its members
 * are checked to agree as kube-scheduler checks them.
 */
class GroupLoopTest {

  private static final String NAME = "my-scheduler";
  /** Pods a node of the test holds. */
  private static final int SLOTS = 2;

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Map<PodGroupRef, PodGroup> groups = new ConcurrentHashMap<>();
  private final List<String> reports = new ArrayList<>();
  private final Map<String, AtomicInteger> bindCalls = new HashMap<>();
  private final List<String> failingBinds = new ArrayList<>();
  private final AtomicInteger finds = new AtomicInteger();
  private boolean honoured = true;

  private final FinderFunc finder = GroupFixtures.slots(SLOTS, finds::incrementAndGet);
  private final PodGroupLookup lookup = GroupFixtures.lookup(groups, () -> honoured);

  private final GroupReportPort report =
      new GroupReportPort() {
        @Override
        public void waiting(PodGroup group, int members) {
          reports.add("waiting " + group.ref().name() + " " + members);
        }

        @Override
        public void unschedulable(PodGroup group, String message, int placed) {
          reports.add("unschedulable " + group.ref().name() + ": " + message);
        }

        @Override
        public void error(PodGroup group, String message) {
          reports.add("error " + group.ref().name() + ": " + message);
        }

        @Override
        public void timedOut(PodGroup group, String message) {
          reports.add("timed out " + group.ref().name() + ": " + message);
        }

        @Override
        public void placed(PodGroup group, int bound) {
          reports.add("placed " + group.ref().name() + " " + bound);
        }
      };

  private LoopParts parts(int nodes) {
    BindPort bindPort =
        (pod, node) -> {
          var name = pod.getMetadata().getName();
          bindCalls.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
          return failingBinds.contains(name)
              ? new BindOutcome.Failed("injected failure")
              : new BindOutcome.Bound(node, false);
        };
    var parts =
        FakeLoop.of(TestSettings.forFakeCluster(NAME), finder, clock::get, bindPort).groups(lookup, report).create();
    for (int i = 1; i <= nodes; i++) {
      parts.handlers().nodes().onAdd(SchedulingLoopPartsTest.node("n" + i));
    }
    return parts;
  }

  private static PodGroupRef ref(String group) {
    return new PodGroupRef(PodGroupRef.Source.COSCHEDULING, "default", group);
  }

  private void group(String name, int minMember) {
    groups.put(ref(name), PodGroup.of(ref(name), minMember));
  }

  private static Pod member(String name, String group) {
    return new PodBuilder(SchedulingLoopPartsTest.pod(name))
        .editMetadata().addToLabels(SchedulingConstants.POD_GROUP_LABEL, group).endMetadata()
        .build();
  }

  private static void add(LoopParts parts, Pod... pods) {
    for (var pod : pods) {
      parts.handlers().pods().onAdd(pod);
    }
  }

  /** Runs scheduling cycles (bindings inline) until no pod is ready to be tried. */
  private static void scheduleAll(LoopParts parts) throws InterruptedException {
    for (var item = parts.queue().poll(); item != null; item = parts.queue().poll()) {
      parts.scheduling().scheduleOne(item);
    }
  }

  /** @return the names of the pods assumed or bound, by node */
  private static List<String> placed(LoopParts parts) {
    return parts.cache().nodes().stream()
        .flatMap(n -> n.pods().stream())
        .map(PodInfo::name)
        .sorted()
        .collect(Collectors.toList());
  }

  @Test
  void two_groups_that_fit_alone_but_not_together_end_one_placed_whole_and_the_other_with_nothing() throws Exception {
    var parts = parts(2); // room for 4 pods
    group("a", 3);
    group("b", 3);
    // Interleaved, as a job controller creating two gangs at once would.
    add(parts, member("a1", "a"), member("b1", "b"), member("a2", "a"), member("b2", "b"), member("a3", "a"),
        member("b3", "b"));

    scheduleAll(parts);

    assertEquals(List.of("a1", "a2", "a3"), placed(parts), "the first group whole, nothing of the other");
    assertEquals(0, parts.cache().placedMembers(ref("b")));
    assertEquals(3, parts.queue().contents().unschedulable().size(), "b's members wait for an event");
    assertTrue(
        reports.contains("unschedulable b: minCount (3) cannot be satisfied: 0 scheduled, 1 remaining")
            || reports.stream().anyMatch(r -> r.startsWith("unschedulable b: minCount (3) cannot be satisfied")),
        reports.toString());
    assertTrue(reports.contains("placed a 3"), reports.toString());
  }

  @Test
  void a_group_none_of_whose_members_fits_waits_for_a_change_that_may_help_one_of_them() throws Exception {
    // Every member is turned away by one filter that registers allocatable changes only and says a node
    // helps once it allows more than 150 pods.
    FinderFunc full = (pod, nodes) -> Decision.unschedulable(Map.of("n1", List.of("Too many pods")))
        .withRejectors(Set.of("Slots"), ClusterChange.of(ClusterChange.NODE_ALLOCATABLE),
            update -> update instanceof ClusterUpdate.NodeUpdated node && node.after().allocatable().pods() > 150);
    var parts = FakeLoop.of(TestSettings.forFakeCluster(NAME), full, clock::get, (pod, node) -> null)
        .groups(lookup, report).create();
    var node = SchedulingLoopPartsTest.node("n1");
    parts.handlers().nodes().onAdd(node);
    group("g", 2);
    add(parts, member("g1", "g"), member("g2", "g"));
    scheduleAll(parts);
    assertEquals(2, parts.queue().depths().unschedulable());

    var relabelled = new NodeBuilder(node).editMetadata().addToLabels("zone", "a").endMetadata().build();
    parts.handlers().nodes().onUpdate(node, relabelled);
    var more = new NodeBuilder(relabelled).editStatus().addToAllocatable("pods", new Quantity("111")).endStatus()
        .build();
    parts.handlers().nodes().onUpdate(relabelled, more);
    var other = new NodeBuilder(SchedulingLoopPartsTest.node("n2")).build();
    parts.handlers().nodes().onAdd(other);
    assertEquals(2, parts.queue().depths().unschedulable(), "a label, a node added: no member's filter registers "
        + "them; 111 pods: its hint says no");

    var enough = new NodeBuilder(more).editStatus().addToAllocatable("pods", new Quantity("200")).endStatus()
        .build();
    parts.handlers().nodes().onUpdate(more, enough);
    assertEquals(0, parts.queue().depths().unschedulable(), "a change that may help one member moves the group");
  }

  @Test
  void a_group_waits_untried_until_its_minimum_of_members_exists() throws Exception {
    var parts = parts(2);
    group("a", 3);
    add(parts, member("a1", "a"), member("a2", "a"));

    scheduleAll(parts);

    assertEquals(0, finds.get(), "not tried");
    assertEquals(List.of(), placed(parts));
    assertEquals(2, parts.queue().depths().gated(), "parked, shown as gated");
    assertEquals(List.of("waiting a 2"), reports);

    add(parts, member("a3", "a")); // the last member arrives late
    scheduleAll(parts);

    assertEquals(List.of("a1", "a2", "a3"), placed(parts));
  }

  @Test
  void a_group_waits_for_its_object_and_is_tried_when_the_object_appears() throws Exception {
    var parts = parts(2);
    add(parts, member("a1", "a"), member("a2", "a"));

    scheduleAll(parts);
    assertEquals(0, finds.get());
    assertEquals(2, parts.queue().depths().gated());

    group("a", 2);
    parts.queue().releaseGroup(ref("a")); // what the loop does on the group object's add event
    scheduleAll(parts);

    assertEquals(List.of("a1", "a2"), placed(parts));
  }

  @Test
  void a_member_whose_binding_keeps_failing_releases_the_members_not_bound_yet() throws Exception {
    var parts = parts(2);
    group("a", 3);
    failingBinds.add("a2");
    add(parts, member("a1", "a"), member("a2", "a"), member("a3", "a"));

    scheduleAll(parts);

    assertEquals(1 + BindingCycle.GROUP_BIND_RETRIES, bindCalls.get("a2").get(), "retried onto its node");
    assertNull(bindCalls.get("a3"), "released before its binding was written");
    assertEquals(List.of("a1"), placed(parts), "a bound member stays bound; the others gave their room up");
    assertEquals(2, parts.queue().contents().backoff().size(), "a2 and a3 are tried again");
    assertFalse(reports.stream().anyMatch(r -> r.startsWith("placed")), reports.toString());

    failingBinds.clear();
    clock.addAndGet(Duration.ofSeconds(30).toNanos());
    scheduleAll(parts);

    assertEquals(List.of("a1", "a2", "a3"), placed(parts), "the group tried again needs its minimum less a1");
  }

  @Test
  void members_that_disagree_on_priority_are_not_tried() throws Exception {
    var parts = parts(2);
    group("a", 2);
    var high = new PodBuilder(member("a2", "a")).editSpec().withPriority(10).endSpec().build();
    add(parts, member("a1", "a"), high);

    scheduleAll(parts);

    assertEquals(0, finds.get());
    assertEquals(List.of(), placed(parts));
    assertTrue(
        reports.contains(
            "error a: all pods in a single pod group should have the same priority as the pod group's priority,"
                + " got 10 and 0"),
        reports.toString());
  }

  @Test
  void members_of_a_source_that_is_not_honoured_are_scheduled_on_their_own() throws Exception {
    honoured = false;
    var parts = parts(1);
    group("a", 3);
    add(parts, member("a1", "a"));

    scheduleAll(parts);

    assertEquals(List.of("a1"), placed(parts));
    assertEquals(List.of(), reports);
  }

  @Test
  void a_group_that_keeps_failing_is_reported_timed_out_once() throws Exception {
    var parts = parts(1); // room for 2
    group("a", 3);
    add(parts, member("a1", "a"), member("a2", "a"), member("a3", "a"));

    scheduleAll(parts);
    parts.groups().checkTimeouts();
    assertFalse(reports.stream().anyMatch(r -> r.startsWith("timed out")), "not yet");

    clock.addAndGet(TestSettings.forFakeCluster(NAME).podGroupTimeout().toNanos());
    parts.groups().checkTimeouts();
    parts.groups().checkTimeouts();

    var timedOut = reports.stream().filter(r -> r.startsWith("timed out")).toList();
    assertEquals(1, timedOut.size(), reports.toString());
    assertTrue(timedOut.get(0).startsWith("timed out a: timed out after 5m0s waiting for 3 members to fit: minCount (3)"),
        timedOut.get(0));
    assertEquals(List.of(), placed(parts));
  }

  @Test
  void a_large_group_that_does_not_fit_holds_nothing_back_from_smaller_groups_and_single_pods() throws Exception {
    var parts = parts(2); // room for 4
    group("big", 5);
    group("small", 2);
    add(parts, member("big1", "big"), member("big2", "big"), member("big3", "big"), member("big4", "big"),
        member("big5", "big"));

    scheduleAll(parts);
    assertEquals(List.of(), placed(parts), "the large group does not fit and assumes nothing");

    // Work arriving later is not blocked behind it, at any priority: the large group holds no room.
    add(parts, member("small1", "small"), member("small2", "small"), SchedulingLoopPartsTest.pod("single"));
    scheduleAll(parts);

    assertEquals(List.of("single", "small1", "small2"), placed(parts));
  }
}
