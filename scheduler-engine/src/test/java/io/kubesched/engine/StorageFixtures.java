package io.kubesched.engine;

import io.kubesched.api.AccessMode;
import io.kubesched.api.ClaimRef;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.VolumeMode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Claims and volumes for the {@link StorageCache} tests. */
final class StorageFixtures {

  static final String NS = "default";

  private StorageFixtures() {}

  /** An unbound claim {@code default/name} of uid {@code uid-<name>}. */
  static PersistentVolumeClaim claim(String name) {
    return new PersistentVolumeClaim(
        NS, name, "uid-" + name, "standard", "", Set.of(AccessMode.READ_WRITE_ONCE), VolumeMode.FILESYSTEM,
        1024, null, "", false, false, false, "", "");
  }

  /** An available volume, bound to the claim {@code default/claimName} if that is not null. */
  static PersistentVolume volume(String name, @Nullable String claimName) {
    return new PersistentVolume(
        name, "standard", 2048, Set.of(AccessMode.READ_WRITE_ONCE), VolumeMode.FILESYSTEM, "", List.of(), Map.of(),
        claimName == null ? null : new ClaimRef(NS, claimName, "uid-" + claimName),
        claimName == null ? PersistentVolume.Phase.AVAILABLE : PersistentVolume.Phase.BOUND, false, "", "");
  }
}
