package io.kubesched.engine;

/**
 * A monotonic clock in nanoseconds, as {@link System#nanoTime()}: the one source of time of the queue, the
 * cache and the rate limiter, so that tests drive them with a fake clock instead of sleeping.
 */
@FunctionalInterface
public interface Ticker {

  /** The system's monotonic clock. */
  Ticker SYSTEM = System::nanoTime;

  /** @return the current time in nanoseconds, from an arbitrary origin; never goes backwards */
  long nanoTime();
}
