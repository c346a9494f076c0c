package io.kubesched.informer;

import io.kubesched.api.ClusterData;
import io.kubesched.api.PodGroupRef;
import io.kubesched.binder.BindMode;
import io.kubesched.informer.leader.LeaderSettings;
import java.time.Duration;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link SchedulingLoop} runs. The facade's {@code Options} owns the defaults and validates every
 * value before it reaches this record, which takes them as they are.
 *
 * @param schedulerName the {@code spec.schedulerName} of the pods to place (the first profile's name), also
 *     used to name the controller's threads
 * @param bindMode how bindings are written (the fake cluster needs {@link BindMode#SET_NODE_NAME})
 * @param bindTimeout how long one binding request may take
 * @param volumeBindingTimeout how long a pod's volume bindings may take to be carried out by the
 *     PersistentVolume controller and the provisioners before the pod is tried again (kube's VolumeBindingArgs
 *     {@code bindTimeoutSeconds}, 600 s)
 * @param initialBackoff how long a pod waits after its first failed attempt
 * @param maxBackoff the longest a pod waits between attempts
 * @param syncTimeout how long {@link SchedulingLoop#start()} waits for the first full list of nodes and pods
 * @param unschedulableTimeout the longest a pod that fits nowhere waits for a cluster event before it is
 *     tried again anyway (kube-scheduler's {@code podMaxInUnschedulablePodsDuration}, 5 minutes)
 * @param assumedPodTtl how long a pod whose binding succeeded may stay unconfirmed by the watch before the
 *     assumption is dropped and the pod tried again; {@link Duration#ZERO} for never
 * @param qps the sustained rate of writes to the API server (bindings, events, conditions), per second
 * @param burst how many writes may go at once before {@code qps} applies
 * @param parallelBindings how many bindings may be in flight at once
 * @param shutdownTimeout how long {@link SchedulingLoop#close()} waits for bindings in flight
 * @param leaderElection where and how to campaign; null schedules without leader election
 * @param externalLeadership whether the embedding application tells the loop when it leads ({@link
 *     SchedulingLoop#setLeading}) instead of an election of its own; the loop then starts as a follower
 * @param podGroupSources the APIs whose pod groups are watched and honoured; a pod naming a group of a source
 *     not in this set is scheduled on its own
 * @param podGroupTimeout how long a pod group with all its members may go unplaced before it is reported as
 *     timed out, where the group sets no timeout of its own
 * @param watch the cluster data to watch beyond what the first policies read, so that a policy replacing one
 *     of them may read it
 * @param parallelism how many threads may filter and score the nodes for one pod (the loop uses at most one
 *     per available processor); 1 for the scheduling thread alone
 */
public record ControllerSettings(
    String schedulerName,
    BindMode bindMode,
    Duration bindTimeout,
    Duration volumeBindingTimeout,
    Duration initialBackoff,
    Duration maxBackoff,
    Duration syncTimeout,
    Duration unschedulableTimeout,
    Duration assumedPodTtl,
    double qps,
    int burst,
    int parallelBindings,
    Duration shutdownTimeout,
    @Nullable LeaderSettings leaderElection,
    boolean externalLeadership,
    Set<PodGroupRef.Source> podGroupSources,
    Duration podGroupTimeout,
    Set<ClusterData> watch,
    int parallelism) {

  public ControllerSettings {
    podGroupSources = Set.copyOf(podGroupSources);
    watch = Set.copyOf(watch);
  }

  /**
   * @return these settings for {@code name}; a lease named after the old scheduler name is named after the
   *     new one, a lease named explicitly keeps its name
   */
  public ControllerSettings withSchedulerName(String name) {
    return withSchedulerName(name, false);
  }

  /**
   * @param leaseNamedExplicitly whether the lease's name was given rather than defaulted to the scheduler name:
   *     then it is kept even where it equals the old scheduler name (a lease {@code kubesched} given for profiles
   *     not named so must stay {@code kubesched}, which RBAC may name)
   * @return these settings for {@code name}; a lease defaulted to the old scheduler name is named after the new one
   */
  public ControllerSettings withSchedulerName(String name, boolean leaseNamedExplicitly) {
    var leader = leaderElection;
    if (leader != null && !leaseNamedExplicitly && leader.lockName().equals(schedulerName)) {
      leader =
          new LeaderSettings(
              leader.lockNamespace(), name, leader.leaseDuration(), leader.renewDeadline(), leader.retryPeriod());
    }
    return new ControllerSettings(
        name,
        bindMode,
        bindTimeout,
        volumeBindingTimeout,
        initialBackoff,
        maxBackoff,
        syncTimeout,
        unschedulableTimeout,
        assumedPodTtl,
        qps,
        burst,
        parallelBindings,
        shutdownTimeout,
        leader,
        externalLeadership,
        podGroupSources,
        podGroupTimeout,
        watch,
        parallelism);
  }
}
