package io.kubesched.policy.plugins.args;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.List;
import org.apiguardian.api.API;

/**
 * A resource that a resource-allocation scorer looks at, with its weight: kube-scheduler's {@code
 * ResourceSpec} of {@code NodeResourcesFitArgs.scoringStrategy.resources} and {@code
 * NodeResourcesBalancedAllocationArgs.resources}.
 *
 * @param name the resource's Kubernetes name: {@value #CPU}, {@value #MEMORY}, {@value #EPHEMERAL_STORAGE}, or
 *     an extended resource such as {@code nvidia.com/gpu} or {@code hugepages-2Mi}
 * @param weight how much the resource counts in the weighted average, 1 to 100 as kube-scheduler validates
 */
@API(status = MAINTAINED, since = "0.1.0")
public record ScoredResource(String name, int weight) {

  /** CPU, counted in millicores. */
  public static final String CPU = "cpu";

  /** Memory, counted in bytes. */
  public static final String MEMORY = "memory";

  /** Ephemeral storage, counted in bytes. */
  public static final String EPHEMERAL_STORAGE = "ephemeral-storage";

  /** The highest weight kube-scheduler accepts for a resource. */
  public static final int MAX_WEIGHT = 100;

  /**
   * @throws IllegalArgumentException if {@code name} is blank or {@code weight} is outside 1..{@value
   *     #MAX_WEIGHT}
   */
  public ScoredResource {
    if (name.isBlank()) {
      throw new IllegalArgumentException("a scored resource's name must not be blank");
    }
    if (weight < 1 || weight > MAX_WEIGHT) {
      throw new IllegalArgumentException(
          "weight of resource " + name + " must be in 1.." + MAX_WEIGHT + ", was " + weight);
    }
  }

  /** @return {@code name} with weight 1 */
  public static ScoredResource of(String name) {
    return new ScoredResource(name, 1);
  }

  /** @return kube-scheduler's default resources: {@value #CPU} and {@value #MEMORY}, weight 1 each */
  public static List<ScoredResource> defaults() {
    return List.of(of(CPU), of(MEMORY));
  }
}
