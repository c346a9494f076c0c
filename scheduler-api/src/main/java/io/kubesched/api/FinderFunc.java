package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import org.apiguardian.api.API;

/**
 * A placement policy: given a pod and the nodes, the node to bind it to, or why none fits.
 *
 * <p>The controller calls it from its single scheduling thread, one pod at a time, with a consistent
 * snapshot in which every earlier decision is already counted. It should be a pure function of its
 * arguments: no I/O, no blocking, no state shared with other threads. If it throws, the pod is reported as
 * failed and retried later with backoff; the controller goes on with other pods.
 *
 * <p>A policy that needs more than the nodes (the namespaces' labels for pod affinity's {@code
 * namespaceSelector}, the selectors of Services and workload controllers for spreading) overrides {@link
 * #find(PodInfo, ClusterSnapshot)} and says what it reads in {@link #reads()}; a simple policy stays a lambda
 * over {@code (pod, nodes)}. The controller calls only {@link #find(PodInfo, ClusterSnapshot)}.
 */
@API(status = STABLE, since = "0.1.0")
@FunctionalInterface
public interface FinderFunc {

  /**
   * @param pod the pod to place, never yet bound
   * @param nodes every node the scheduler knows of, each with the pods already placed on it; may be empty
   * @return {@link Decision#bind(String) bind} to one of {@code nodes}, or {@link
   *     Decision#unschedulable(Map) unschedulable} with the reasons
   */
  Decision find(PodInfo pod, List<NodeInfo> nodes);

  /**
   * Decides for {@code pod} over the whole snapshot. The controller calls this method; by default it passes
   * the snapshot's nodes to {@link #find(PodInfo, List)}.
   *
   * @param pod the pod to place, never yet bound
   * @param cluster the snapshot: every node with its pods, and the parts of the cluster {@link #reads()}
   *     names
   * @return as {@link #find(PodInfo, List)}
   */
  default Decision find(PodInfo pod, ClusterSnapshot cluster) {
    return find(pod, cluster.nodes());
  }

  /**
   * @return the parts of the cluster beyond nodes and pods this policy reads, which the controller then
   *     watches and puts in every {@link ClusterSnapshot}; none by default. Called once, when the controller
   *     is created with this policy or this policy replaces another in it.
   */
  default Set<ClusterData> reads() {
    return Set.of();
  }

  /**
   * This finder without preemption: a pod that fits nowhere gets no nomination and no victims. A pod group's
   * members are tried with it, since a member that had pods evicted for it alone would hold room for a group
   * that may never fit (the partial hold that deadlocks interleaved groups). By default the finder itself,
   * which is right for a finder that never nominates.
   *
   * @return a finder that decides as this one does but never answers with a {@link Nomination.To}
   */
  default FinderFunc withoutPreemption() {
    return this;
  }

  /**
   * This finder sharing one decision's work over the nodes out to {@code parallelism} threads: the thread that
   * calls {@code find} and up to {@code parallelism - 1} tasks on {@code executor}, as kube-scheduler filters
   * and scores nodes on its {@code parallelism} goroutines. The controller asks for it once per policy, with a
   * pool it owns and closes, sized from {@code Options.Builder#parallelism}. A finder that shares work out must
   * decide exactly as it would alone (the same decision whatever the number of threads and their timing), must
   * not wait for a task that has not started (the caller may do the work itself), and never shuts {@code
   * executor} down. By default the finder itself, which is right for a finder that works on the calling thread
   * only.
   *
   * @param parallelism how many threads may work on one decision, the calling thread included; at least 1
   * @param executor runs the tasks a decision hands out; its threads never wait on the calling thread
   * @return a finder that decides as this one does, possibly on several threads
   */
  default FinderFunc withParallelism(int parallelism, Executor executor) {
    return this;
  }
}
