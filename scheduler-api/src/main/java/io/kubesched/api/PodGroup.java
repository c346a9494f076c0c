package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A gang: pods that are placed all together or not at all. At least {@link #minMember()} of its members
 * must fit at once (counting those already bound or being bound) before any of them is bound. The members
 * are the pods that name the group ({@link PodInfo#podGroup()}); the scheduler gathers them, they are not
 * part of this value.
 *
 * <p>From the Workload API ({@link PodGroupRef.Source#WORKLOAD_API}): {@code minMember} is the gang policy's
 * {@code minCount}, {@code priority} is {@code spec.priority} when set, and there is neither a timeout nor a
 * minimum of resources. From coscheduling ({@link PodGroupRef.Source#COSCHEDULING}): {@code spec.minMember},
 * {@code spec.scheduleTimeoutSeconds} and {@code spec.minResources}; no priority (the members' own counts).
 *
 * @param ref the group's source, namespace and name
 * @param uid the group object's uid
 * @param generation the group object's {@code metadata.generation} (0 if the server sets none)
 * @param minMember how many members must fit together; at least 1
 * @param timeout how long the group may wait, once it has its members, before its failure is reported as a
 *     timeout; {@code null} for the scheduler's default
 * @param minResources the resources the group needs free in the cluster, summed over all nodes, before its
 *     members are even tried (coscheduling's {@code minResources}); {@link Resources#ZERO} for none
 * @param priority the group's own priority, {@code null} where the source has none
 * @param created the group object's creation time
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record PodGroup(
    PodGroupRef ref,
    String uid,
    long generation,
    int minMember,
    @Nullable Duration timeout,
    Resources minResources,
    @Nullable Integer priority,
    Instant created) {

  /** @throws IllegalArgumentException if {@code minMember} is below 1 or the timeout is not positive */
  public PodGroup {
    if (minMember < 1) {
      throw new IllegalArgumentException(
          "pod group " + ref.key() + ": minMember must be at least 1, got " + minMember);
    }
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException("pod group " + ref.key() + ": timeout must be positive, got " + timeout);
    }
  }

  /**
   * @param ref the group
   * @param minMember how many members must fit together
   * @return a group with no timeout, no minimum of resources and no priority, created at the epoch: for
   *     tests and examples
   */
  public static PodGroup of(PodGroupRef ref, int minMember) {
    return new PodGroup(ref, ref.key(), 0, minMember, null, Resources.ZERO, null, Instant.EPOCH);
  }

  /** @return the group's own timeout; empty where the scheduler's default applies */
  public Optional<Duration> timeoutIfSet() {
    return Optional.ofNullable(timeout);
  }

  /** @return the group's own priority; empty where the source has none */
  public OptionalInt priorityIfSet() {
    return priority == null ? OptionalInt.empty() : OptionalInt.of(priority);
  }

  /** @return {@code namespace/name} */
  public String key() {
    return ref.key();
  }
}
