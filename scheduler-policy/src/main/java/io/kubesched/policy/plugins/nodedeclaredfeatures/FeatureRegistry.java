package io.kubesched.policy.plugins.nodedeclaredfeatures;

import io.kubesched.api.PodInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The declared features a scheduler knows and the inference over them, as kube's {@code nodedeclaredfeatures.Framework}
 * (its {@code InferForPodScheduling}): a pod needs each registered feature whose rule says so, unless the target
 * version is past the feature's maximum version. Immutable and thread-safe.
 */
final class FeatureRegistry {

  /** kube 1.37's registry ({@link Features#KUBE_1_37}). */
  static final FeatureRegistry DEFAULT = new FeatureRegistry(Features.KUBE_1_37);

  private final List<DeclaredFeature> features;

  /**
   * @param features the registered features; sorted by name here, as kube sorts its registry
   * @throws IllegalArgumentException if two have the same name
   */
  FeatureRegistry(Collection<? extends DeclaredFeature> features) {
    var sorted = new ArrayList<DeclaredFeature>(features);
    sorted.sort(Comparator.comparing(DeclaredFeature::name));
    var names = new HashSet<String>();
    for (var feature : sorted) {
      if (!names.add(feature.name())) {
        throw new IllegalArgumentException("feature \"" + feature.name() + "\" is registered twice");
      }
    }
    this.features = List.copyOf(sorted);
  }

  /** @return the registered features' names, sorted */
  List<String> names() {
    return features.stream().map(DeclaredFeature::name).toList();
  }

  /**
   * @param pod the pod to schedule (its spec; kube passes no status at scheduling)
   * @param target the version of the scheduler asking
   * @return the names of the features a node must declare to take {@code pod}, sorted; empty if none
   */
  Set<String> inferForScheduling(PodInfo pod, ComponentVersion target) {
    Set<String> needed = Set.of();
    for (var feature : features) {
      var max = feature.maxVersion();
      if (max.isPresent() && target.compareTo(max.get()) > 0) {
        continue;
      }
      if (feature.inferForScheduling(pod)) {
        if (needed.isEmpty()) {
          needed = new TreeSet<>();
        }
        needed.add(feature.name());
      }
    }
    return needed.isEmpty() ? Set.of() : Collections.unmodifiableSet(needed);
  }
}
