package io.kubesched.adapter;

import static io.kubesched.adapter.PodAdapter.orEmpty;

import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodDisruptionBudget;
import java.util.HashSet;
import java.util.Objects;

/**
 * A {@code policy/v1} PodDisruptionBudget read into the {@link PodDisruptionBudget} preemption counts with, as a
 * pure function. Safe to call from any thread; never returns {@code null}.
 */
public final class DisruptionBudgetAdapter {

  private DisruptionBudgetAdapter() {}

  /**
   * @return the budget's namespace and name, {@code spec.selector} ({@code null} if unset; an empty one stays
   *     empty, and either selects no pod), {@code status.disruptionsAllowed} (0 while the disruption controller
   *     has written no status) and the names of the pods in {@code status.disruptedPods}
   * @throws MalformedObjectException naming the budget ({@code PodDisruptionBudget namespace/name}), the field
   *     and the value, if a requirement of {@code spec.selector} has an unknown operator or values that do not
   *     fit it: a selector kube-scheduler cannot parse, for which it counts the budget as protecting no pod
   */
  public static PodDisruptionBudget toBudget(io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget budget) {
    var meta = budget.getMetadata();
    var namespace = meta == null ? "" : orEmpty(meta.getNamespace());
    var name = meta == null ? "" : orEmpty(meta.getName());
    var spec = budget.getSpec();
    var selector =
        LabelSelectors.read(
            spec == null ? null : spec.getSelector(),
            "PodDisruptionBudget " + namespace + "/" + name,
            "spec.selector");
    var status = budget.getStatus();
    var allowed = status == null || status.getDisruptionsAllowed() == null ? 0 : status.getDisruptionsAllowed();
    var disrupted = new HashSet<String>();
    if (status != null) {
      orEmpty(status.getDisruptedPods()).keySet().forEach(pod -> disrupted.add(Objects.requireNonNullElse(pod, "")));
    }
    return new PodDisruptionBudget(namespace, name, selector, allowed, disrupted);
  }
}
