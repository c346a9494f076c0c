package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What preemption reads of a {@code policy/v1} PodDisruptionBudget: which pods it protects and how many of
 * them may still be disrupted. The status is kept by kube-controller-manager's disruption controller; without
 * it {@code disruptionsAllowed} stays 0.
 *
 * @param namespace the budget's namespace: it protects pods of this namespace only
 * @param name the budget's name
 * @param selector {@code spec.selector}; {@code null} or empty selects no pod for preemption's purposes (as
 *     kube-scheduler reads it)
 * @param disruptionsAllowed {@code status.disruptionsAllowed}: how many more of its pods may be disrupted now
 * @param disruptedPods the names of the pods in {@code status.disruptedPods}: already being disrupted, so
 *     evicting them again costs nothing from the budget
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record PodDisruptionBudget(
    String namespace,
    String name,
    @Nullable LabelSelector selector,
    int disruptionsAllowed,
    Set<String> disruptedPods) {

  public PodDisruptionBudget {
    disruptedPods = Set.copyOf(disruptedPods);
  }

  /**
   * @return whether the budget protects {@code pod}: same namespace, a selector with at least one requirement,
   *     and the pod's labels match it (a pod without labels is never protected)
   */
  public boolean protects(PodInfo pod) {
    return selector != null
        && !selector.isEmpty()
        && !pod.labels().isEmpty()
        && namespace.equals(pod.namespace())
        && selector.matches(pod.labels());
  }
}
