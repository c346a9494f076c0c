package io.kubesched.informer.watch;

import io.kubesched.api.ResourceClaim;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a ResourceClaim's event tells the queue's hints (kube's DynamicResources {@code
 * isSchedulableAfterClaimChange}): which claim, its controller, and whether devices were freed.
 *
 * @param ownerUid the uid of the claim's controller, {@code null} if none
 * @param freesDevices whether the event freed devices
 */
record ClaimSeen(String namespace, String name, @Nullable String ownerUid, boolean freesDevices) {

  /**
   * A claim seen added or updated.
   *
   * @param before the claim as last seen; {@code null} if not seen (added)
   * @param after the claim now
   * @return what to report; {@code null} when nothing a waiting pod may care about changed: the same claim with
   *     the same status (a finalizer or label written, as drivers and the scheduler do)
   */
  static @Nullable ClaimSeen changed(@Nullable ResourceClaim before, ResourceClaim after) {
    var owner = after.controller() == null ? null : after.controller().uid();
    if (before == null || !before.uid().equals(after.uid())) {
      return new ClaimSeen(after.namespace(), after.name(), owner, before != null && before.allocation() != null);
    }
    boolean deallocated = before.allocation() != null && after.allocation() == null;
    boolean statusChanged =
        !Objects.equals(before.allocation(), after.allocation())
            || !before.reservedFor().equals(after.reservedFor())
            || !before.devices().equals(after.devices());
    return deallocated || statusChanged ? new ClaimSeen(after.namespace(), after.name(), owner, deallocated) : null;
  }

  /**
   * A claim seen deleted.
   *
   * @param before the claim as last seen; {@code null} if not seen
   * @param allocatedOrUnknown whether the claim was deleted allocated, or in a final state not known
   */
  static ClaimSeen deleted(
      String namespace, String name, @Nullable ResourceClaim before, boolean allocatedOrUnknown) {
    var owner = before == null || before.controller() == null ? null : before.controller().uid();
    return new ClaimSeen(namespace, name, owner, allocatedOrUnknown || (before != null && before.allocation() != null));
  }
}
