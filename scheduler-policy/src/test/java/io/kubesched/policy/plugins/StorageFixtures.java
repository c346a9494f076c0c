package io.kubesched.policy.plugins;

import io.kubesched.api.AccessMode;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PersistentVolume;
import io.kubesched.api.PersistentVolumeClaim;
import io.kubesched.api.Storage;
import io.kubesched.api.StorageClass;
import io.kubesched.api.VolumeMode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Storage objects for the volume filters' tests, in the spirit of kube-scheduler's test listers: only what the
 * filter under test reads is given, the rest has its API default.
 */
public final class StorageFixtures {

  private StorageFixtures() {}

  /** @return a claim {@code default/name} bound to {@code volumeName} (empty: unbound), without a class */
  public static PersistentVolumeClaim claim(String name, String volumeName) {
    return claim("default", name, "", volumeName, Set.of());
  }

  /** @return an unbound claim {@code default/name} of class {@code className} */
  public static PersistentVolumeClaim unboundClaim(String name, String className) {
    return claim("default", name, className, "", Set.of());
  }

  /** @return an unbound claim {@code default/name} without a class, with the given access modes */
  public static PersistentVolumeClaim claimWithModes(String name, AccessMode... modes) {
    return claim("default", name, "", "", Set.of(modes));
  }

  public static PersistentVolumeClaim claim(
      String namespace, String name, String className, String volumeName, Set<AccessMode> modes) {
    return new PersistentVolumeClaim(
        namespace, name, "uid-" + namespace + "-" + name, className, volumeName, modes, VolumeMode.FILESYSTEM, 0,
        null, "", false, false, false, "", "");
  }

  /** @return a volume of no class with the given labels */
  public static PersistentVolume volume(String name, Map<String, String> labels) {
    return new PersistentVolume(
        name, "", 0, Set.of(), VolumeMode.FILESYSTEM, "", List.of(), labels, null, PersistentVolume.Phase.BOUND,
        false, "", "");
  }

  /** @return a class that binds immediately ({@code waitForFirstConsumer} false) or waits for a pod */
  public static StorageClass storageClass(String name, boolean waitForFirstConsumer) {
    return new StorageClass(name, "example.com/provisioner", waitForFirstConsumer, List.of());
  }

  /** @return storage of just these objects */
  public static Storage storage(
      List<PersistentVolumeClaim> claims, List<PersistentVolume> volumes, List<StorageClass> classes) {
    return Storage.of(claims, volumes, classes, List.of(), List.of(), List.of());
  }

  /** @return a snapshot of the nodes with the storage */
  public static ClusterSnapshot snapshot(Storage storage, NodeInfo... nodes) {
    return ClusterSnapshot.of(Arrays.asList(nodes)).withStorage(storage);
  }
}
