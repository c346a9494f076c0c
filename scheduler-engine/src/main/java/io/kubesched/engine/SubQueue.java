package io.kubesched.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * One of a {@link SchedulingQueue}'s sub-queues: the entries in one {@link QueueEntry.Place}, in an
 * order of its own. Adding an entry sets its place; the caller takes it out of its former sub-queue first,
 * as an entry is in at most one.
 *
 * <p>Guarded by the queue's lock; not thread-safe on its own. An entry's ordering fields must not change
 * while it is in a sub-queue (see {@link QueueEntry}).
 */
abstract sealed class SubQueue permits ActiveQueue, BackoffQueue, UnschedulablePods, GatedPods, HeldPods, ParkedPods {

  /** The order in which entries were queued: for the sub-queues that only time or an event empties. */
  static final Comparator<QueueEntry> ARRIVAL_ORDER = Comparator.comparingLong(e -> e.arrival);

  private final QueueEntry.Place place;
  private final TreeSet<QueueEntry> entries;

  SubQueue(QueueEntry.Place place, Comparator<QueueEntry> order) {
    this.place = place;
    this.entries = new TreeSet<>(order);
  }

  /** Puts the entry here, in this sub-queue's place; it must be in no other sub-queue. */
  void add(QueueEntry entry) {
    entry.place = place;
    entries.add(entry);
  }

  /** Takes the entry out, if it is here; its place is for the caller to set. */
  void remove(QueueEntry entry) {
    entries.remove(entry);
  }

  /** @return the first entry in this sub-queue's order, left in place; null if empty */
  final @Nullable QueueEntry peek() {
    return entries.isEmpty() ? null : entries.first();
  }

  /** @return the first entry, taken out (its place is for the caller to set); null if empty */
  final @Nullable QueueEntry poll() {
    return entries.pollFirst();
  }

  /** @return the entries in this sub-queue's order, a read-only view to iterate without changing it */
  final Iterable<QueueEntry> entries() {
    return Collections.unmodifiableSortedSet(entries);
  }

  final int size() {
    return entries.size();
  }

  /** @return the pods in this sub-queue's order, as a new list */
  final List<QueuedPod> pods() {
    var pods = new ArrayList<QueuedPod>(entries.size());
    entries.forEach(entry -> pods.add(entry.pod));
    return pods;
  }
}
