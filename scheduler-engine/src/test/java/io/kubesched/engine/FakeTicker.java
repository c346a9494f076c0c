package io.kubesched.engine;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test says so. Thread-safe. */
final class FakeTicker implements Ticker {

  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  @Override
  public long nanoTime() {
    return now.get();
  }

  /** Moves the clock forward by {@code duration}. */
  void advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("a clock does not go back: " + duration);
    }
    now.addAndGet(duration.toNanos());
  }
}
