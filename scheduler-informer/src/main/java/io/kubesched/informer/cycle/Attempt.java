package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.PodInfo;
import io.kubesched.engine.QueuedPod;

/**
 * One scheduling attempt of one pod, as kube-scheduler hands its {@code QueuedPodInfo} through {@code
 * schedule_one.go}: built once, when the pod is taken off the queue (by the {@link SchedulingCycle}, or by the
 * {@link GroupCycle} for the members taken with a group), then handed to every step that follows (deciding,
 * refusing, preempting, binding, reporting), so that no step fetches the pod back from a side map. Once a node
 * is chosen and assumed, the attempt travels on as {@link Assumed}. Immutable; any thread.
 *
 * @param item the queue's item taken off the queue, with the pod's progress as it was then
 * @param pod the pod in the kept form the watch last showed when the attempt began: what the binder binds and
 *     the reports write about
 * @param info the pod as the policy reads it, with the nomination the queue holds for it
 * @param profile the profile the attempt read at its start: the one policy of the whole attempt, a policy
 *     replaced meanwhile is used from the next attempt on
 * @param startedNanos when the attempt began (the loop's ticker), for its duration in the metrics
 */
public record Attempt(QueuedPod item, Pod pod, PodInfo info, Profiles.Profile profile, long startedNanos) {

  /** @return the pod's uid */
  public String uid() {
    return item.uid();
  }

  /** @return the pod's {@code namespace/name}, for the log */
  public String key() {
    return item.key();
  }

  /** @return this attempt with {@code changed} as the pod the policy reads (its nomination, say) */
  Attempt withInfo(PodInfo changed) {
    return new Attempt(item, pod, changed, profile, startedNanos);
  }

  /**
   * @return this attempt with {@code latest} as the pod's object, for a report written after an asynchronous
   *     wait, when the watch may have shown a newer one
   */
  Attempt withPod(Pod latest) {
    return new Attempt(item, latest, info, profile, startedNanos);
  }

  /** @return this attempt with its pod assumed on {@code nodeName} */
  Assumed on(String nodeName) {
    return new Assumed(this, nodeName);
  }
}
