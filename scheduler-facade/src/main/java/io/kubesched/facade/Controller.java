package io.kubesched.facade;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.STABLE;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
   * Explains the pod {@code namespace/name} as this controller's next attempt of it would see it: the nodes as
   * {@link #nodes()} gives them (the pods whose binding the watch has not shown yet included), the nodes
   * preemption nominated pods to, and the policy its profile has now (after any {@link #replacePolicy}). A member
   * of a pod group the controller places with its group is explained with the group ({@link
   * PodExplanation.Group}). A pod that cannot be explained is said so, with why ({@link
   * PodExplanation.Unexplained}): bound or being bound, a profile whose policy is a plain {@link FinderFunc}
   * rather than a {@link io.kubesched.policy.Policy} (which alone explains per node and plugin), a group still
   * waiting for members, a policy that failed.
   *
   * <p>Changes nothing: the pod is neither taken from the queue nor assumed nor reported, and the policy's
   * round-robin start stays where it is, so the next decision is the one explained (unless the cluster changes
   * in between). Callable from any thread while running, by several at once; the explanation is computed on
   * the calling thread, and the scheduling thread waits for it at most for a read of the queue or the cache.
   * It costs about what one decision costs.
   *
   * <p>The default implementation throws {@link UnsupportedOperationException}; the controllers a {@link Client}
   * makes implement it.
   *
   * @param namespace the pod's namespace
   * @param name the pod's name
   * @return the explanation; empty if no unfinished pod has that name, or none of this controller's profiles
   *     is its {@code spec.schedulerName}
   * @throws IllegalStateException if not started
   * @throws UnsupportedOperationException if this controller does not explain
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  default Optional<PodExplanation> explain(String namespace, String name) {
    throw new UnsupportedOperationException(getClass().getName() + " does not explain pods");
  }

  /**
   * The cluster as this controller's next decision would see it, for a what-if simulation ({@code
   * io.kubesched.simulation.Simulation}, module {@code scheduler-simulation}): {@link #nodes()} with the pods placed
   * on each, the nodes preemption nominated pods to, and what the profiles' policies read (namespaces' labels,
   * Services' and workloads' selectors, storage and device objects, PodDisruptionBudgets). An immutable value; callable
   * from any thread while running.
   *
   * <p>The default implementation throws {@link UnsupportedOperationException}; the controllers a {@link Client}
   * makes implement it.
   *
   * @throws IllegalStateException if not started
   * @throws UnsupportedOperationException if this controller does not offer it
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  default ClusterSnapshot snapshot() {
    throw new UnsupportedOperationException(getClass().getName() + " does not offer snapshots");
  }

  /**
   * The pods this controller has yet to place, as its queue holds them (not those being bound): what a simulation
   * of "what happens to the pending pods" places. Highest priority first. Callable from any thread while running.
   *
   * <p>The default implementation throws {@link UnsupportedOperationException}; the controllers a {@link Client}
   * makes implement it.
   *
   * @throws IllegalStateException if not started
   * @throws UnsupportedOperationException if this controller does not offer it
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  default List<PodInfo> pendingPods() {
    throw new UnsupportedOperationException(getClass().getName() + " does not list pending pods");
  }

  /**
   * The pod group objects this controller knows, for a what-if simulation of their members ({@code
   * Simulation.Builder.podGroups}): those it can read, of the sources it watches ({@link #podGroupSources()}),
   * ordered by source, namespace and name. Callable from any thread while running.
   *
   * <p>The default implementation throws {@link UnsupportedOperationException}; the controllers a {@link Client}
   * makes implement it.
   *
   * @throws IllegalStateException if not started
   * @throws UnsupportedOperationException if this controller does not offer it
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  default List<PodGroup> podGroups() {
    throw new UnsupportedOperationException(getClass().getName() + " does not list pod groups");
  }

  /**
   * The sources of pod groups this controller watches: those {@link Options.Builder#podGroupSources} asks for that
   * the API server serves. It schedules the members of a group of another source one by one, and so should a
   * simulation ({@code Simulation.Builder.podGroupSources}). Callable from any thread while running.
   *
   * <p>The default implementation throws {@link UnsupportedOperationException}; the controllers a {@link Client}
   * makes implement it.
   *
   * @throws IllegalStateException if not started
   * @throws UnsupportedOperationException if this controller does not offer it
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  default Set<PodGroupRef.Source> podGroupSources() {
    throw new UnsupportedOperationException(getClass().getName() + " does not list pod group sources");
  }

  /**
   * The policy the profile {@code schedulerName}'s next attempt uses: the one it was made with, or the latest
   * {@link #replacePolicy} gave it (given the controller's node workers). What a what-if simulation of that
   * profile's pods places them with. Callable from any thread, before or after {@link #start()}.
   *
   * <p>The default implementation throws {@link UnsupportedOperationException}; the controllers a {@link Client}
   * makes implement it.
   *
   * @throws ConfigurationException if {@code schedulerName} is not one of this controller's profiles (the message
   *     lists them)
   * @throws UnsupportedOperationException if this controller does not offer it
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  default FinderFunc policy(String schedulerName) {
    throw new UnsupportedOperationException(getClass().getName() + " does not show its policies");
  }

  /**
   * Stops scheduling and gives up leadership, waits for the bindings in flight (up to {@link
   * Options.Builder#shutdownTimeout(java.time.Duration)}), then stops the watches and every thread the
   * controller started. Idempotent; callable from any thread, including a listener.
   */
  @Override
  void close();
}
