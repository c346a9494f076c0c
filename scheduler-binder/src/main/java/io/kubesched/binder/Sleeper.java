package io.kubesched.binder;

import java.util.concurrent.TimeUnit;

/**
 * Waits for a span of time. Injected into {@link TokenBucket} so that tests can wait on a fake clock
 * instead of the real one.
 */
@FunctionalInterface
public interface Sleeper {

  /** Sleeps on the real clock, with {@link TimeUnit#sleep}. */
  Sleeper SYSTEM = nanos -> TimeUnit.NANOSECONDS.sleep(nanos);

  /**
   * Returns after about {@code nanos} nanoseconds have passed on the clock this sleeper belongs to.
   *
   * @param nanos how long to wait; positive
   * @throws InterruptedException if the calling thread is interrupted while waiting; the implementation
   *     must then return early, with the thread's interrupt status cleared
   */
  void sleep(long nanos) throws InterruptedException;
}
