package io.kubesched.facade;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.STABLE;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.SchedulerException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Places every pod whose {@code spec.schedulerName} is the client's scheduler name (or one of its profiles'
 * names) with that profile's {@link FinderFunc}, which {@link #replacePolicy} may replace while it runs.
 *
 * <p>Thread-safe. {@link #start()} at most once; {@link #close()} any number of times; {@link #replacePolicy}
 * at any time.
 */
@API(status = STABLE, since = "0.1.0")
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
   * For a controller made with {@link Options.Builder#externalLeadership()}: the application tells it that it
   * gained ({@code true}) or lost ({@code false}) its leadership, typically from its leader elector's
   * callbacks; the controller schedules only in between. While not leading it keeps watching and queueing, so
   * it takes over at once. Callable from any thread, before or after {@link #start()}; after {@link #close()}
   * it changes nothing.
   *
   * @throws IllegalStateException if the controller was not made with external leadership
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  void setLeading(boolean leading);

  /**
   * Replaces the policy of one profile without a restart. The next scheduling attempt of a pod of that profile
   * (a pod group's attempt included) uses {@code finder}; an attempt in flight finishes with the policy it
   * began with, so an attempt never mixes two policies, and no queued pod is lost or bound twice. The
   * profile's pods waiting as unschedulable are tried again, as after a cluster event, since the new policy
   * may place them; so are those whose attempt with the old policy ends without a node. Logged at INFO. The
   * other profiles, the queue, the nodes and metrics per profile carry on as they were.
   *
   * <p>A controller watches, from start to close, what its first policies {@linkplain FinderFunc#reads()
   * read} and what {@link Options.Builder#watch} adds: {@code finder} may read only that. Callable from any
   * thread, before or after {@link #start()}; after {@link #close()} it changes nothing that runs.
   *
   * @param schedulerName the profile: the client's scheduler name, or a key of the profiles map this
   *     controller was made with
   * @param finder the new policy; its {@link FinderFunc#reads()} is called once, here
   * @throws ConfigurationException if {@code schedulerName} is not one of this controller's profiles (the
   *     message lists them), or if {@code finder} reads cluster data this controller does not watch (the
   *     message names it and {@link Options.Builder#watch}); the old policy stays then
   */
  void replacePolicy(String schedulerName, FinderFunc finder);

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
