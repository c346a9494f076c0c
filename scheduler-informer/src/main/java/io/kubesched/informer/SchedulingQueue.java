package io.kubesched.informer;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Pods waiting to be scheduled, one entry per pod uid. A pod that failed waits out a backoff that starts at
 * {@code initialBackoff} and doubles per failed attempt up to {@code maxBackoff}; {@link #activateAll()}
 * ends every wait at once, for when the cluster changed in a way that may help.
 *
 * <p>Thread-safe. {@link #add} and {@link #backoff} never block; {@link #take()} blocks the worker.
 */
final class SchedulingQueue {

  /** A pod to schedule: its uid and where to find it. */
  record Item(String uid, String namespace, String name) {
    String key() {
      return namespace + "/" + name;
    }
  }

  private static final class Entry {
    final Item item;
    long readyAt;
    final long sequence;

    Entry(Item item, long readyAt, long sequence) {
      this.item = item;
      this.readyAt = readyAt;
      this.sequence = sequence;
    }
  }

  private final LongSupplier nanoClock;
  private final long initialBackoffNanos;
  private final long maxBackoffNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<String, Entry> queued = new HashMap<>();
  private final Map<String, Integer> failures = new HashMap<>();
  private final PriorityQueue<Entry> byReadyTime =
      new PriorityQueue<>(
          Comparator.<Entry>comparingLong(e -> e.readyAt).thenComparingLong(e -> e.sequence));
  private long sequence;
  private boolean closed;

  SchedulingQueue(LongSupplier nanoClock, Duration initialBackoff, Duration maxBackoff) {
    this.nanoClock = nanoClock;
    this.initialBackoffNanos = initialBackoff.toNanos();
    this.maxBackoffNanos = maxBackoff.toNanos();
  }

  /** Queues {@code item} to be scheduled now, unless its uid is queued already. */
  void add(Item item) {
    enqueue(item, 0);
  }

  /** Queues {@code item} again after its next backoff: a failed attempt. */
  void backoff(Item item) {
    lock.lock();
    try {
      int attempts = failures.merge(item.uid(), 1, Integer::sum);
      enqueue(item, backoffNanos(attempts));
    } finally {
      lock.unlock();
    }
  }

  /** Forgets {@code uid}: its failures and any queued entry. For a pod that was bound or is gone. */
  void forget(String uid) {
    lock.lock();
    try {
      failures.remove(uid);
      var entry = queued.remove(uid);
      if (entry != null) {
        byReadyTime.remove(entry);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Makes every queued pod ready now. */
  void activateAll() {
    lock.lock();
    try {
      long now = nanoClock.getAsLong();
      var entries = byReadyTime.toArray(new Entry[0]);
      byReadyTime.clear();
      for (var entry : entries) {
        entry.readyAt = Math.min(entry.readyAt, now);
        byReadyTime.add(entry);
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** @return the next ready item, or null if none is ready now */
  @Nullable Item poll() {
    lock.lock();
    try {
      var head = byReadyTime.peek();
      if (head == null || head.readyAt > nanoClock.getAsLong()) {
        return null;
      }
      byReadyTime.poll();
      queued.remove(head.item.uid());
      return head.item;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits for the next ready item.
   *
   * @return the item, or null once the queue is closed
   * @throws InterruptedException if interrupted while waiting
   */
  @Nullable Item take() throws InterruptedException {
    lock.lock();
    try {
      while (!closed) {
        var item = poll();
        if (item != null) {
          return item;
        }
        var head = byReadyTime.peek();
        if (head == null) {
          changed.await();
        } else {
          changed.awaitNanos(Math.max(1, head.readyAt - nanoClock.getAsLong()));
        }
      }
      return null;
    } finally {
      lock.unlock();
    }
  }

  /** Wakes {@link #take()} for good: it returns null from now on. */
  void close() {
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** @return how many pods are queued, ready or waiting */
  int size() {
    lock.lock();
    try {
      return queued.size();
    } finally {
      lock.unlock();
    }
  }

  /** @return the backoff after {@code attempts} failed attempts: initial, doubled per attempt, capped */
  long backoffNanos(int attempts) {
    long backoff = initialBackoffNanos;
    for (int i = 1; i < attempts && backoff < maxBackoffNanos; i++) {
      backoff *= 2;
    }
    return Math.min(backoff, maxBackoffNanos);
  }

  private void enqueue(Item item, long delayNanos) {
    lock.lock();
    try {
      if (closed || queued.containsKey(item.uid())) {
        return;
      }
      var entry = new Entry(item, nanoClock.getAsLong() + delayNanos, sequence++);
      queued.put(item.uid(), entry);
      byReadyTime.add(entry);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
