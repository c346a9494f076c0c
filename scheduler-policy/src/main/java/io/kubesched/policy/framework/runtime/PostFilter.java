package io.kubesched.policy.framework.runtime;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Nomination;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * kube-scheduler's PostFilter extension point as the {@link Evaluator} runs it: called once when a pod fits no
 * node, with what the filters said of each node; what it returns becomes the decision's post-filter message
 * and nomination. The policy's preemption ({@code DefaultPreemption}) is the one implementation; it is pure
 * and called on the thread that evaluates.
 */
public interface PostFilter {

  /**
   * What a PostFilter found for one pod.
   */
  interface Outcome {

    /** @return the PostFilter's message, appended to the pod's unschedulable message */
    String message();

    /** @return what becomes of the pod's nomination */
    Nomination nomination();
  }

  /**
   * Runs for a pod that fits no node.
   *
   * @param pod the pod
   * @param cluster the snapshot the attempt was made on
   * @param prepared the pod's filters as its attempt prepared them
   * @param statuses what the filters said of each node in the attempt
   * @param offsets a generator the PostFilter may draw from (preemption's dry-run offsets)
   * @return the outcome
   */
  Outcome evaluate(
      PodInfo pod, ClusterSnapshot cluster, List<Filter> prepared, NodeStatuses statuses, RandomGenerator offsets);
}
