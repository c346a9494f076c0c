package io.kubesched.informer.leader;

import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate of the scheduling cycle under leader election: only the leader takes pods; the informers and
 * the cache keep running on every replica so a new leader starts warm. Without leader election the gate is
 * open from the start.
 *
 * <p>Thread-safe: the leader elector's thread {@linkplain #set sets} it, the scheduling thread {@linkplain
 * #awaitLeading waits on it}, anyone may read it.
 */
public final class Leadership {

  private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

  private final Set<String> profiles;
  private final Object lock = new Object();
  private volatile boolean leading;
  private boolean closed;

  /**
   * @param profiles the scheduler names, for the log
   * @param leading whether to lead from the start: true without leader election
   */
  public Leadership(Set<String> profiles, boolean leading) {
    this.profiles = Set.copyOf(profiles);
    this.leading = leading;
  }

  /** @return whether this replica schedules now */
  public boolean isLeading() {
    return leading;
  }

  /** The elector won or lost the lease. */
  public void set(boolean nowLeading) {
    synchronized (lock) {
      leading = nowLeading;
      lock.notifyAll();
    }
    LOG.info(
        nowLeading ? "Scheduler {} leads: scheduling" : "Scheduler {} lost leadership: not scheduling", profiles);
  }

  /**
   * Blocks while another replica leads.
   *
   * @return whether this replica leads now; false once {@link #close()}d
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public boolean awaitLeading() throws InterruptedException {
    synchronized (lock) {
      while (!leading && !closed) {
        lock.wait();
      }
      return !closed;
    }
  }

  /** Releases every waiting thread for good. */
  public void close() {
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
    }
  }
}
