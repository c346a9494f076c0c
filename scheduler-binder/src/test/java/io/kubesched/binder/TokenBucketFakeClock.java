package io.kubesched.binder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A nanosecond clock that moves only when told to, and a {@link Sleeper} on it that returns at once after
 * moving the clock forward by the time asked (and records what it was asked). Thread-safe.
 */
final class TokenBucketFakeClock implements LongSupplier, Sleeper {

  private final AtomicLong now;
  private final List<Long> sleeps = new ArrayList<>();

  TokenBucketFakeClock(long start) {
    now = new AtomicLong(start);
  }

  @Override
  public long getAsLong() {
    return now.get();
  }

  @Override
  public void sleep(long nanos) {
    synchronized (sleeps) {
      sleeps.add(nanos);
    }
    now.addAndGet(nanos);
  }

  void advance(Duration by) {
    now.addAndGet(by.toNanos());
  }

  void set(long nanos) {
    now.set(nanos);
  }

  /** @return the waits asked for so far, in the order they were asked */
  List<Long> sleeps() {
    synchronized (sleeps) {
      return List.copyOf(sleeps);
    }
  }
}
