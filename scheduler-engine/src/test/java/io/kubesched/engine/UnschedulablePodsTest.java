package io.kubesched.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.PodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link UnschedulablePods} on its own: the timeout counted from the longest waiting entry, and the index of
 * the entries waiting for bound pods kept with the main set.
 */
class UnschedulablePodsTest {

  private static final QueueingHint WAITS_FOR_PODS = new QueueingHint(
      true, "ns", List.of(PodAffinityTerm.of(LabelSelector.EVERYTHING, "zone")), List.of(), List.of());

  private final UnschedulablePods unschedulable = new UnschedulablePods(1_000);

  private static QueueEntry entry(String name, long arrival, long queuedAt, QueueingHint hint) {
    var entry = new QueueEntry(SchedulingQueueTest.pod(name));
    entry.arrival = arrival;
    entry.queuedAt = queuedAt;
    entry.hint = hint;
    return entry;
  }

  @Test
  void only_an_entry_that_waited_longer_than_the_limit_is_overdue_the_longest_waiting_first() {
    var first = entry("first", 0, 0, QueueingHint.ANY_CHANGE);
    var second = entry("second", 1, 500, QueueingHint.ANY_CHANGE);
    unschedulable.add(second);
    unschedulable.add(first);

    assertEquals(1_001, unschedulable.nextDue());
    assertNull(unschedulable.pollOverdue(1_000));
    assertSame(first, unschedulable.pollOverdue(1_001));
    assertNull(unschedulable.pollOverdue(1_001));
    assertEquals(1_501, unschedulable.nextDue());
  }

  @Test
  void an_event_about_bound_pods_looks_only_at_the_entries_whose_hint_waits_for_them() {
    var any = entry("any", 0, 0, QueueingHint.ANY_CHANGE);
    var waiting = entry("waiting", 1, 0, WAITS_FOR_PODS);
    unschedulable.add(any);
    unschedulable.add(waiting);
    var looked = new ArrayList<String>();

    var moved = unschedulable.removeIf(true, (pod, hint) -> looked.add(pod.name()));

    assertEquals(List.of("waiting"), looked);
    assertEquals(List.of(waiting), moved);
    assertEquals(List.of(any.pod), unschedulable.pods());
  }

  @Test
  void an_entry_taken_out_leaves_the_index_of_those_waiting_for_bound_pods_too() {
    var waiting = entry("waiting", 0, 0, WAITS_FOR_PODS);
    unschedulable.add(waiting);
    assertSame(waiting, unschedulable.pollOverdue(1_001));

    assertEquals(List.of(), unschedulable.removeIf(true, (pod, hint) -> true));
    assertEquals(0, unschedulable.size());
  }

  @Test
  void removeIf_takes_out_in_arrival_order_only_what_the_event_helps() {
    var a = entry("a", 0, 0, QueueingHint.ANY_CHANGE);
    var b = entry("b", 1, 0, QueueingHint.POD_UPDATE_ONLY);
    var c = entry("c", 2, 0, WAITS_FOR_PODS);
    unschedulable.add(c);
    unschedulable.add(b);
    unschedulable.add(a);

    var moved = unschedulable.removeIf(false, (pod, hint) -> hint.movedByClusterChange());

    assertEquals(List.of(a, c), moved);
    assertEquals(List.of(b.pod), unschedulable.pods());
    assertEquals(QueueEntry.Place.UNSCHEDULABLE, b.place);
  }
}
