package io.kubesched.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import org.apiguardian.api.API;

/**
 * A pod's {@code spec.affinity.podAffinity} or {@code spec.affinity.podAntiAffinity}.
 *
 * @param required the terms of {@code requiredDuringSchedulingIgnoredDuringExecution}: each must hold
 * @param preferred the terms of {@code preferredDuringSchedulingIgnoredDuringExecution}
 */
@API(status = STABLE, since = "0.1.0")
public record PodAffinity(List<PodAffinityTerm> required, List<WeightedPodAffinityTerm> preferred) {

  /** No terms at all. */
  public static final PodAffinity NONE = new PodAffinity(List.of(), List.of());

  public PodAffinity {
    required = List.copyOf(required);
    preferred = List.copyOf(preferred);
  }

  /** @return whether there is no term, required or preferred */
  public boolean isEmpty() {
    return required.isEmpty() && preferred.isEmpty();
  }
}
