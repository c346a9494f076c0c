package io.kubesched.binder;

import java.util.function.LongSupplier;

/**
 * A client-side limit on the rate of API requests, as client-go's
 * {@code flowcontrol.NewTokenBucketRateLimiter(qps, burst)}: the bucket starts with {@code burst} tokens,
 * gains {@code qps} tokens per second up to {@code burst}, and every request takes one.
 *
 * <p>fabric8 has no such limit of its own. The rate a scheduler uses (kube-scheduler's client: 50 per
 * second, bursts of 100) is the facade's {@code Options} default; this bucket takes whatever it is given.
 *
 * <p>Implementations are thread-safe. Concurrent callers each get a token of their own: no token is
 * handed out twice.
 */
public interface TokenBucket {

  /**
   * Takes a token, waiting until one is available. Callers that come while the bucket is empty are
   * served in the order they called, each at the earliest time the rate allows.
   *
   * @throws InterruptedException if the thread is interrupted before or while waiting; the token it was
   *     waiting for is then given back (as far as later callers have not been promised it already)
   */
  void acquire() throws InterruptedException;

  /**
   * Takes a token if one is available now; never waits.
   *
   * @return whether a token was taken
   */
  boolean tryAcquire();

  /**
   * A bucket on the real clock.
   *
   * @param qps tokens added per second; positive and finite
   * @param burst the bucket's size, and the tokens it starts with; at least 1
   * @throws IllegalArgumentException if {@code qps} or {@code burst} is out of range
   */
  static TokenBucket create(double qps, int burst) {
    return new TokenBucketLimiter(qps, burst, System::nanoTime, Sleeper.SYSTEM);
  }

  /**
   * A bucket on a given clock, for tests: {@code sleeper} must wait on the clock {@code nanoTime} reads.
   *
   * @param qps tokens added per second; positive and finite
   * @param burst the bucket's size, and the tokens it starts with; at least 1
   * @param nanoTime a monotonic clock in nanoseconds, like {@link System#nanoTime}; thread-safe
   * @param sleeper waits on that clock
   * @throws IllegalArgumentException if {@code qps} or {@code burst} is out of range
   */
  static TokenBucket create(double qps, int burst, LongSupplier nanoTime, Sleeper sleeper) {
    return new TokenBucketLimiter(qps, burst, nanoTime, sleeper);
  }
}
