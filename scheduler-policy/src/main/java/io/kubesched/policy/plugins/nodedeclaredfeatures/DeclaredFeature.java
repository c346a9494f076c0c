package io.kubesched.policy.plugins.nodedeclaredfeatures;

import io.kubesched.api.PodInfo;
import java.util.Optional;

/**
 * One feature a node may declare in {@code status.declaredFeatures}, as kube's {@code
 * nodedeclaredfeatures/types.Feature} as far as scheduling reads it: its name and whether a pod needs it.
 * Implementations are pure and thread-safe.
 */
interface DeclaredFeature {

  /** @return the name a node declares, such as {@code RestartAllContainersOnContainerExits} */
  String name();

  /** @return whether scheduling {@code pod} needs a node that declares this feature */
  boolean inferForScheduling(PodInfo pod);

  /**
   * @return the last Kubernetes version (inclusive) for which the feature still matters for scheduling; past it,
   *     every node supported by the version skew policy has it, and no pod needs it declared. Empty: no bound.
   */
  Optional<ComponentVersion> maxVersion();
}
