package io.kubesched.binder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TokenBucket} on a fake clock. The tables are golang.org/x/time/rate's own cases (rate_test.go,
 * the ones that do not change the limit or burst afterwards), and client-go's throttle_test.go with the
 * fake clock in place of real sleeps.
 */
class TokenBucketTest {

  private static final long T0 = 1_000_000_000_000L;
  private static final long D = Duration.ofMillis(100).toNanos();

  private static long t(int steps) {
    return T0 + steps * D;
  }

  // --- x/time/rate's step tables -------------------------------------------------------------------

  /** One step of a table: what to do at which time and what must come of it. */
  sealed interface Step {}

  /** {@code TokensAt(t) == toks}, then {@code AllowN(t, n) == ok}. */
  record Allow(long t, double toks, int n, boolean ok) implements Step {}

  /** {@code reserveN(t, n, maxWait)} is {@code ok} and, if so, acts at {@code act}; kept as {@code name}. */
  record Reserve(long t, int n, long act, boolean ok, long maxWait, String name) implements Step {}

  /** The reservation kept as {@code name} is cancelled at {@code t}. */
  record Cancel(String name, long t) implements Step {}

  private static Allow allow(long t, double toks, int n, boolean ok) {
    return new Allow(t, toks, n, ok);
  }

  private static Reserve reserve(long t, int n, long act, boolean ok) {
    return new Reserve(t, n, act, ok, Long.MAX_VALUE, "");
  }

  private static Reserve reserve(long t, int n, long act, boolean ok, String name) {
    return new Reserve(t, n, act, ok, Long.MAX_VALUE, name);
  }

  private static Reserve reserveMax(long t, int n, long act, boolean ok, long maxWait) {
    return new Reserve(t, n, act, ok, maxWait, "");
  }

  private static Cancel cancel(String name, long t) {
    return new Cancel(name, t);
  }

  private static Arguments table(String name, double qps, int burst, Step... steps) {
    return Arguments.of(Named.of(name, new double[] {qps, burst}), List.of(steps));
  }

  static Stream<Arguments> rateTables() {
    return Stream.of(
        table("TestLimiterBurst1", 10, 1,
            allow(t(0), 1, 1, true), allow(t(0), 0, 1, false), allow(t(0), 0, 1, false),
            allow(t(1), 1, 1, true), allow(t(1), 0, 1, false), allow(t(1), 0, 1, false),
            allow(t(2), 1, 2, false), allow(t(2), 1, 1, true), allow(t(2), 0, 1, false)),
        table("TestLimiterBurst3", 10, 3,
            allow(t(0), 3, 2, true), allow(t(0), 1, 2, false), allow(t(0), 1, 1, true),
            allow(t(0), 0, 1, false), allow(t(1), 1, 4, false), allow(t(2), 2, 1, true),
            allow(t(3), 2, 1, true), allow(t(4), 2, 1, true), allow(t(4), 1, 1, true),
            allow(t(4), 0, 1, false), allow(t(4), 0, 1, false), allow(t(9), 3, 3, true),
            allow(t(9), 0, 0, true)),
        table("TestLimiterJumpBackwards", 10, 3,
            allow(t(1), 3, 1, true), allow(t(0), 2, 1, true), allow(t(0), 1, 1, true),
            allow(t(0), 0, 1, false), allow(t(0), 0, 1, false), allow(t(1), 1, 1, true),
            allow(t(1), 0, 1, false), allow(t(1), 0, 1, false), allow(t(2), 1, 1, true),
            allow(t(2), 0, 1, false), allow(t(2), 0, 1, false)),
        table("TestSimpleReserve", 10, 2,
            reserve(t(0), 2, t(0), true), reserve(t(0), 2, t(2), true), reserve(t(3), 2, t(4), true)),
        table("TestMix", 10, 2,
            reserve(t(0), 3, t(1), false), reserve(t(0), 2, t(0), true), allow(t(1), 1, 2, false),
            reserve(t(1), 2, t(2), true), allow(t(1), -1, 1, false), allow(t(3), 1, 1, true)),
        table("TestCancelInvalid", 10, 2,
            reserve(t(0), 2, t(0), true), reserve(t(0), 3, t(3), false, "r"), cancel("r", t(0)),
            reserve(t(0), 2, t(2), true)),
        table("TestCancelLast", 10, 2,
            reserve(t(0), 2, t(0), true), reserve(t(0), 2, t(2), true, "r"), cancel("r", t(1)),
            reserve(t(1), 2, t(2), true)),
        table("TestCancelTooLate", 10, 2,
            reserve(t(0), 2, t(0), true), reserve(t(0), 2, t(2), true, "r"), cancel("r", t(3)),
            reserve(t(3), 2, t(4), true)),
        table("TestCancel0Tokens", 10, 2,
            reserve(t(0), 2, t(0), true), reserve(t(0), 1, t(1), true, "r"),
            reserve(t(0), 1, t(2), true), cancel("r", t(0)), reserve(t(0), 1, t(3), true)),
        table("TestCancel1Token", 10, 2,
            reserve(t(0), 2, t(0), true), reserve(t(0), 2, t(2), true, "r"),
            reserve(t(0), 1, t(3), true), cancel("r", t(2)), reserve(t(2), 2, t(4), true)),
        table("TestCancelMulti", 10, 4,
            reserve(t(0), 4, t(0), true), reserve(t(0), 3, t(3), true, "a"),
            reserve(t(0), 1, t(4), true), reserve(t(0), 1, t(5), true, "c"), cancel("c", t(1)),
            cancel("a", t(1)), reserve(t(1), 3, t(5), true)),
        table("TestReserveJumpBack", 10, 2,
            reserve(t(1), 2, t(1), true), reserve(t(0), 1, t(1), true), reserve(t(2), 2, t(3), true),
            reserve(t(0), 3, 0, false), reserve(t(2), 1, t(4), true),
            reserveMax(t(0), 2, 0, false, D), reserve(t(2), 1, t(5), true)),
        table("TestReserveJumpBackCancel", 10, 2,
            reserve(t(1), 2, t(1), true), reserve(t(1), 2, t(3), true, "r"),
            reserve(t(1), 1, t(4), true), cancel("r", t(0)), reserve(t(1), 2, t(4), true)),
        table("TestReserveMax", 10, 2,
            reserveMax(t(0), 2, t(0), true, D), reserveMax(t(0), 1, t(1), true, D),
            reserveMax(t(0), 1, t(2), false, D)),
        table("TestLimiter_noTruncationErrors", 0.7692307692307693, 1, allow(t(0), 1, 1, true)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rateTables")
  void the_bucket_follows_x_time_rate_step_by_step(double[] limits, List<Step> steps) {
    var bucket = new TokenBucketLimiter(limits[0], (int) limits[1], () -> T0, Sleeper.SYSTEM);
    var kept = new HashMap<String, TokenBucketLimiter.Reservation>();
    for (int i = 0; i < steps.size(); i++) {
      var step = steps.get(i);
      var where = "step " + i + " " + step;
      if (step instanceof Allow a) {
        assertEquals(a.toks(), bucket.tokensAt(a.t()), where);
        assertEquals(a.ok(), bucket.allow(a.t(), a.n()), where);
      } else if (step instanceof Reserve r) {
        var reservation = bucket.reserve(r.t(), r.n(), r.maxWait());
        assertEquals(r.ok(), reservation.ok(), where);
        if (r.ok()) {
          assertEquals(r.act(), reservation.timeToAct(), where);
        }
        kept.put(r.name(), reservation);
      } else if (step instanceof Cancel c) {
        bucket.cancel(kept.get(c.name()), c.t());
      }
    }
  }

  // --- client-go's throttle tests ------------------------------------------------------------------

  @Test
  void a_full_bucket_gives_its_burst_and_then_refuses() {
    var clock = new TokenBucketFakeClock(T0);
    var bucket = TokenBucket.create(1, 3, clock, clock);
    for (int i = 0; i < 3; i++) {
      assertTrue(bucket.tryAcquire(), "token " + i);
    }
    assertFalse(bucket.tryAcquire());
  }

  @Test
  void an_empty_bucket_gives_a_token_again_once_the_rate_has_refilled_one() {
    var clock = new TokenBucketFakeClock(T0);
    var bucket = TokenBucket.create(1, 1, clock, clock);
    assertTrue(bucket.tryAcquire());
    assertFalse(bucket.tryAcquire());
    clock.advance(Duration.ofMillis(999));
    assertFalse(bucket.tryAcquire());
    clock.advance(Duration.ofMillis(1));
    assertTrue(bucket.tryAcquire());
  }

  @Test
  void acquiring_takes_the_burst_at_once_and_then_one_token_per_interval() {
    var clock = new TokenBucketFakeClock(T0);
    var bucket = TokenBucket.create(10, 5, clock, clock);
    for (int i = 0; i < 16; i++) {
      acquire(bucket);
    }
    // client-go's TestThrottle only asks for "at least one second"; on a fake clock it is exact.
    assertEquals(Duration.ofMillis(1100).toNanos(), clock.getAsLong() - T0);
    assertEquals(Collections.nCopies(11, D), clock.sleeps());
  }

  @Test
  void a_rate_that_is_not_a_round_number_of_nanoseconds_does_not_drift() {
    // client-go's TestRatePrecisionBug: its qps is a float32, so the same float32 is used here.
    double qps = (float) ((double) TimeUnit.SECONDS.toNanos(1) / Duration.ofNanos(1_031_425_000L).toNanos());
    var clock = new TokenBucketFakeClock(T0);
    var bucket = TokenBucket.create(qps, 1, clock, clock);
    for (int i = 0; i < 60; i++) {
      assertTrue(bucket.tryAcquire(), "failed after " + (i * 2) + " seconds");
      clock.advance(Duration.ofSeconds(2));
    }
  }

  // --- our own examples ----------------------------------------------------------------------------

  @Test
  void after_a_long_idle_time_the_bucket_holds_no_more_than_its_burst() {
    var clock = new TokenBucketFakeClock(T0);
    var bucket = TokenBucket.create(50, 4, clock, clock);
    clock.advance(Duration.ofHours(1));
    for (int i = 0; i < 4; i++) {
      assertTrue(bucket.tryAcquire(), "token " + i);
    }
    assertFalse(bucket.tryAcquire());
  }

  @Test
  void a_bucket_tells_its_rate_and_size() {
    assertEquals("TokenBucket[qps=50.0, burst=100]", TokenBucket.create(50, 100).toString());
  }

  @Test
  void concurrent_acquirers_each_get_a_token_of_their_own() throws Exception {
    int callers = 12;
    int burst = 3;
    var sleeps = Collections.synchronizedList(new ArrayList<Long>());
    // The clock stands still and the sleeper returns at once: each caller's wait shows which token it got.
    var bucket = TokenBucket.create(10, burst, () -> T0, sleeps::add);
    var start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      var done = new ArrayList<Future<?>>();
      for (int i = 0; i < callers; i++) {
        done.add(pool.submit(() -> {
          start.await();
          bucket.acquire();
          return null;
        }));
      }
      start.countDown();
      for (var f : done) {
        f.get(10, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    var waits = new ArrayList<>(sleeps);
    Collections.sort(waits);
    // The first `burst` callers did not wait; every other one waits one interval longer than the last.
    assertEquals(LongStream.rangeClosed(1, callers - burst).map(k -> k * D).boxed().toList(), waits);
  }

  @Test
  void an_interrupted_acquirer_gives_its_token_back() throws Exception {
    var clock = new TokenBucketFakeClock(T0);
    var entered = new CountDownLatch(1);
    var never = new CountDownLatch(1);
    var bucket = TokenBucket.create(10, 1, clock, nanos -> {
      entered.countDown();
      never.await();
    });
    assertTrue(bucket.tryAcquire());
    var failure = new AtomicReference<Throwable>();
    var waiter = new Thread(() -> {
      try {
        bucket.acquire();
      } catch (Throwable e) {
        failure.set(e);
      }
    });
    waiter.start();
    assertTrue(entered.await(10, TimeUnit.SECONDS), "the waiter reached the sleep");
    waiter.interrupt();
    waiter.join(TimeUnit.SECONDS.toMillis(10));
    assertFalse(waiter.isAlive());
    assertInstanceOf(InterruptedException.class, failure.get());

    // Had the waiter kept its token, the next one would be due only after two intervals.
    clock.advance(Duration.ofMillis(100));
    assertTrue(bucket.tryAcquire());
  }

  @Test
  void a_thread_interrupted_before_acquiring_takes_no_token() {
    var clock = new TokenBucketFakeClock(T0);
    var bucket = TokenBucket.create(10, 1, clock, clock);
    Thread.currentThread().interrupt();
    assertThrows(InterruptedException.class, bucket::acquire);
    assertFalse(Thread.currentThread().isInterrupted(), "the interrupt was consumed");
    assertTrue(bucket.tryAcquire());
  }

  @Test
  void limits_out_of_range_are_refused_with_their_value() {
    var clock = new TokenBucketFakeClock(T0);
    for (double qps : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      var e = assertThrows(IllegalArgumentException.class, () -> TokenBucket.create(qps, 1, clock, clock));
      assertEquals("qps must be positive and finite, was " + qps, e.getMessage());
    }
    var e = assertThrows(IllegalArgumentException.class, () -> TokenBucket.create(1, 0, clock, clock));
    assertEquals("burst must be at least 1, was 0", e.getMessage());
  }

  private static void acquire(TokenBucket bucket) {
    try {
      bucket.acquire();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
