package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What a pod's spec asks of its node's kubelet and container runtime beyond resources: the fields from which
 * kube-scheduler's {@code NodeDeclaredFeatures} plugin infers the features a node must declare in {@code
 * status.declaredFeatures} to run the pod (kube's {@code component-helpers/nodedeclaredfeatures} registry).
 *
 * @param hostNetwork {@code spec.hostNetwork}
 * @param hostUsers {@code spec.hostUsers}; {@code null} when unset (the pod then uses the host's user namespace)
 * @param restartRuleActions the {@code action} of every {@code restartPolicyRules} entry of the pod's containers
 *     and init containers, each once (for example {@code RestartAllContainers})
 * @param bindMountOptions whether a volume mount of any container, init container or ephemeral container sets
 *     {@code bindMountOptions}
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record PodRuntime(
    boolean hostNetwork, @Nullable Boolean hostUsers, Set<String> restartRuleActions, boolean bindMountOptions) {

  /** A pod that asks nothing of the runtime: its own network and user namespaces, no rules, no bind options. */
  public static final PodRuntime NONE = new PodRuntime(false, null, Set.of(), false);

  public PodRuntime {
    restartRuleActions = Set.copyOf(restartRuleActions);
  }
}
