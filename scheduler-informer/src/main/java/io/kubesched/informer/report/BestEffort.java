package io.kubesched.informer.report;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the loop's reports to the API server off the thread that has something to tell, best effort: as
 * client-go's event broadcaster, a report that fails is logged and dropped, and none is run once the executor
 * refuses work (the loop is closing). Shared by every writer of reports: the cycles' pod reports and the pod
 * group reports.
 */
public final class BestEffort {

  private static final Logger LOG = LoggerFactory.getLogger(BestEffort.class);

  /** An API write that may wait for a token of the write limit. */
  @FunctionalInterface
  public interface ApiWrite {
    void run() throws InterruptedException;
  }

  private BestEffort() {}

  /**
   * Runs {@code write} on {@code reports}; a failure is logged as {@code what} failed. Never blocks, never
   * throws; callable from any thread.
   */
  public static void run(Executor reports, String what, ApiWrite write) {
    try {
      reports.execute(
          () -> {
            try {
              write.run();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
              LOG.warn("{} failed: {}", what, e.toString());
            }
          });
    } catch (RejectedExecutionException closing) {
      LOG.debug("Not reporting: the loop is closing");
    }
  }
}
