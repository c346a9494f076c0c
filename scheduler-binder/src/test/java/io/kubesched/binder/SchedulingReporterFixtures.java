package io.kubesched.binder;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** Clocks and limiters for the reporter tests. */
public final class SchedulingReporterFixtures {

  public static final String SCHEDULER = "test-scheduler";
  public static final String HOST = "host-1";
  /** A time with microseconds, so that the formats' precision shows. */
  public static final Instant START = Instant.parse("2026-03-04T05:06:07.123456789Z");

  private SchedulingReporterFixtures() {}

  /** A wall clock that moves only when told to. Thread-safe. */
  public static final class MutableClock extends Clock {
    private final AtomicReference<Instant> now;

    public MutableClock(Instant start) {
      now = new AtomicReference<>(start);
    }

    public void advance(Duration by) {
      now.updateAndGet(t -> t.plus(by));
    }

    @Override
    public Instant instant() {
      return now.get();
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the tests use UTC only");
    }
  }

  /** A limiter that never waits and counts the tokens taken. */
  public static final class CountingBucket implements TokenBucket {
    public final AtomicInteger taken = new AtomicInteger();

    @Override
    public void acquire() {
      taken.incrementAndGet();
    }

    @Override
    public boolean tryAcquire() {
      taken.incrementAndGet();
      return true;
    }
  }
}
