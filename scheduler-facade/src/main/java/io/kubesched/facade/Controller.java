package io.kubesched.facade;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.SchedulerException;
import java.util.List;

/**
 * Places every pod whose {@code spec.schedulerName} is the client's scheduler name with one {@link
 * io.kubesched.api.FinderFunc}.
 *
 * <p>Thread-safe. {@link #start()} at most once; {@link #close()} any number of times.
 */
public interface Controller extends AutoCloseable {

  /**
   * Lists the cluster, then schedules in the background until {@link #close()}. Returns once the first
   * list is complete.
   *
   * @throws IllegalStateException if already started or closed
   * @throws SchedulerException if the cluster cannot be listed in time; the controller is closed then
   */
  void start();

  /**
   * Starts the controller if it is not started yet, then blocks until it is closed (by another thread, or
   * a shutdown hook).
   *
   * @throws InterruptedException if the calling thread is interrupted; the controller keeps running
   * @throws SchedulerException if the cluster cannot be listed in time
   */
  void run() throws InterruptedException;

  /** @return whether the controller is started and not closed */
  boolean isRunning();

  /**
   * @return whether this controller schedules now: while running, always without leader election, and only
   *     while it holds the lease with it
   */
  boolean isLeader();

  /**
   * @return the nodes as the next decision would see them, with the pods placed on each (those whose
   *     binding the watch has not shown yet included)
   * @throws IllegalStateException if not started
   */
  List<NodeInfo> nodes();

  /**
   * Stops scheduling and gives up leadership, waits for the bindings in flight (up to {@link
   * Options.Builder#shutdownTimeout(java.time.Duration)}), then stops the watches and every thread the
   * controller started. Idempotent; callable from any thread, including a listener.
   */
  @Override
  void close();
}
