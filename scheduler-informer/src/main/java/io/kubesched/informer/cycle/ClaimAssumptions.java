package io.kubesched.informer.cycle;

import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ResourceClaim;
import io.kubesched.engine.DeviceCache;
import java.util.List;
import java.util.Optional;

/**
 * The allocations the scheduling thread made for pods being bound, held where the next decisions see them (kube's
 * in-flight claim allocations in its assume cache), until the watch shows them written or the attempt gives them
 * back; and the claims as those decisions see them. Thread-safe: assumed on the scheduling thread, forgotten on a binding
 * thread, read on any.
 */
public interface ClaimAssumptions {

  /** Holds nothing: for a loop whose policies read no ResourceClaims. */
  ClaimAssumptions NONE =
      new ClaimAssumptions() {
        @Override
        public void assume(String podUid, List<ClaimAllocation> allocations) {}

        @Override
        public void forget(String podUid) {}

        @Override
        public Optional<ResourceClaim> current(String namespace, String name) {
          return Optional.empty();
        }
      };

  /** @return the assumptions held in the loop's {@link DeviceCache}, where every snapshot's claims come from */
  static ClaimAssumptions in(DeviceCache devices) {
    return new ClaimAssumptions() {
      @Override
      public void assume(String podUid, List<ClaimAllocation> allocations) {
        devices.assume(podUid, allocations);
      }

      @Override
      public void forget(String podUid) {
        devices.forget(podUid);
      }

      @Override
      public void created(String podUid, String placeholderUid, ClaimAllocation created) {
        devices.created(podUid, placeholderUid, created.name(), created.uid());
      }

      @Override
      public Optional<ResourceClaim> current(String namespace, String name) {
        return devices.dynamicResources().claim(namespace, name);
      }
    };
  }

  /**
   * The claim to create for pod {@code podUid}'s extended resources (placeholder uid {@code placeholderUid}) exists
   * now as {@code created}: held under its name from now, so its devices stay taken until the watch shows it.
   */
  default void created(String podUid, String placeholderUid, ClaimAllocation created) {}

  /** Shows {@code allocations} as made for pod {@code podUid} in every later snapshot (kube's Reserve). */
  void assume(String podUid, List<ClaimAllocation> allocations);

  /** Gives pod {@code podUid}'s assumed allocations back (kube's Unreserve); a no-op when it holds none. */
  void forget(String podUid);

  /**
   * @return claim {@code namespace/name} as the next decision sees it: as the watch last showed it, with the
   *     assumptions laid over it (kube's assume cache, which its PreBind reads while it waits for binding conditions)
   */
  Optional<ResourceClaim> current(String namespace, String name);
}
