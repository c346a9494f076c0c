package io.kubesched.binder;

import java.util.function.LongSupplier;

/**
 * The {@link TokenBucket}: golang.org/x/time/rate's {@code Limiter}, which client-go's token-bucket rate
 * limiter wraps, with its arithmetic (tokens as a {@code double}, refilled from elapsed nanoseconds).
 *
 * <p>Written here rather than taken from a library: Guava's {@code RateLimiter} is a smooth limiter (it
 * spaces permits evenly and stores at most one second of unused permits, so it has no burst of N), and
 * resilience4j's refreshes a fixed number of permits per period (a bucket that empties and refills at
 * period boundaries, not continuously); neither hands out {@code burst} tokens and then {@code qps} per
 * second as kube-scheduler's client does, and both are dependencies the binder does not otherwise need.
 *
 * <p>A waiting caller reserves its token at once (the bucket may go negative) and then sleeps until the
 * rate has paid for it, so callers are served in order and none can overtake a sleeping one. An
 * interrupted caller cancels its reservation.
 *
 * <p>Thread-safe: the state is guarded by this object's monitor, never held while sleeping.
 */
final class TokenBucketLimiter implements TokenBucket {

  private static final double NANOS_PER_SECOND = 1e9;

  private final double qps;
  private final int burst;
  private final LongSupplier nanoTime;
  private final Sleeper sleeper;

  // Guarded by this.
  private double tokens;
  private long last;
  private long lastEvent;

  /**
   * One reservation: {@code tokens} taken at {@code timeToAct}, or refused ({@code ok} false).
   *
   * @param ok whether the tokens were granted
   * @param tokens how many were taken
   * @param timeToAct when the caller may act, on the bucket's clock
   */
  record Reservation(boolean ok, int tokens, long timeToAct) {}

  /**
   * @throws IllegalArgumentException if {@code qps} is not positive and finite or {@code burst} is below 1
   */
  TokenBucketLimiter(double qps, int burst, LongSupplier nanoTime, Sleeper sleeper) {
    if (!(qps > 0) || Double.isInfinite(qps)) {
      throw new IllegalArgumentException("qps must be positive and finite, was " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, was " + burst);
    }
    this.qps = qps;
    this.burst = burst;
    this.nanoTime = nanoTime;
    this.sleeper = sleeper;
    this.tokens = burst;
    this.last = nanoTime.getAsLong();
    this.lastEvent = last;
  }

  @Override
  public void acquire() throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted before taking a token");
    }
    long now = nanoTime.getAsLong();
    var reservation = reserve(now, 1, Long.MAX_VALUE);
    long delay = reservation.timeToAct() - now;
    if (delay <= 0) {
      return;
    }
    try {
      sleeper.sleep(delay);
    } catch (InterruptedException e) {
      cancel(reservation, nanoTime.getAsLong());
      throw e;
    }
  }

  @Override
  public boolean tryAcquire() {
    return allow(nanoTime.getAsLong(), 1);
  }

  @Override
  public String toString() {
    return "TokenBucket[qps=" + qps + ", burst=" + burst + "]";
  }

  /** @return whether {@code n} tokens were available at {@code now}; takes them if so */
  synchronized boolean allow(long now, int n) {
    return reserve(now, n, 0).ok();
  }

  /** @return the tokens the bucket holds at {@code now} (negative while reservations are pending) */
  synchronized double tokensAt(long now) {
    return advance(now);
  }

  /**
   * Takes {@code n} tokens at {@code now}, to be used once the rate has paid for them.
   *
   * @param maxWait the longest wait the caller accepts, in nanoseconds
   * @return the reservation; refused (and the state left unchanged) if {@code n} exceeds the burst or the
   *     wait would exceed {@code maxWait}
   */
  synchronized Reservation reserve(long now, int n, long maxWait) {
    double left = advance(now) - n;
    long wait = left < 0 ? durationFromTokens(-left) : 0;
    if (n > burst || wait > maxWait) {
      return new Reservation(false, 0, 0);
    }
    var reservation = new Reservation(true, n, now + wait);
    last = now;
    tokens = left;
    lastEvent = reservation.timeToAct();
    return reservation;
  }

  /**
   * Gives back what a reservation took, as far as later reservations have not been promised it (those
   * keep their time). Nothing happens for a refused reservation or one whose time has passed.
   */
  synchronized void cancel(Reservation reservation, long now) {
    if (!reservation.ok() || reservation.tokens() == 0 || reservation.timeToAct() - now < 0) {
      return;
    }
    double restore = reservation.tokens() - tokensFromDuration(lastEvent - reservation.timeToAct());
    if (restore <= 0) {
      return;
    }
    tokens = Math.min(burst, advance(now) + restore);
    last = now;
    if (reservation.timeToAct() == lastEvent) {
      long previous = reservation.timeToAct() + durationFromTokens(-reservation.tokens());
      if (previous - now >= 0) {
        lastEvent = previous;
      }
    }
  }

  /** The tokens at {@code now}, without changing the state. A clock that went back refills nothing. */
  private double advance(long now) {
    long elapsed = Math.max(0, now - last);
    return Math.min(burst, tokens + tokensFromDuration(elapsed));
  }

  // As x/time/rate: seconds split into whole and fractional parts before multiplying, and durations
  // truncated to whole nanoseconds, so that the same inputs give the same answers as kube's client.
  private double tokensFromDuration(long nanos) {
    long seconds = nanos / 1_000_000_000L;
    long rest = nanos % 1_000_000_000L;
    return ((double) seconds + (double) rest / NANOS_PER_SECOND) * qps;
  }

  private long durationFromTokens(double count) {
    double nanos = count / qps * NANOS_PER_SECOND;
    return nanos >= (double) Long.MAX_VALUE ? Long.MAX_VALUE : (long) nanos;
  }
}
